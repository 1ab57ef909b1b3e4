pragma circom 2.0.0;

// A long multiplication chain with three public inputs:
// out = (a * b * x_0 * x_1 * ... ) with every step a constraint, plus linear
// rows (kept by --O1) that mix the public inputs in.
template MulChain(n) {
    signal input a;
    signal input b;
    signal input c;
    signal input x[n];
    signal output out;

    signal acc[n + 1];
    acc[0] <== a * b;
    for (var i = 0; i < n; i++) {
        acc[i + 1] <== acc[i] * x[i];
    }
    signal lin;
    lin <== acc[n] + 3 * c;
    out <== lin * c;
}

component main {public [a, b, c]} = MulChain(1000);
