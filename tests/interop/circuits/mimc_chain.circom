pragma circom 2.0.0;

include "mimcsponge.circom";

// A chain of circomlib MiMC sponge hashes with four public inputs.
template MimcChain(n) {
    signal input x;
    signal input p[4];
    signal output out;

    component m[n];
    for (var i = 0; i < n; i++) {
        m[i] = MiMCSponge(2, 220, 1);
        m[i].ins[0] <== i == 0 ? x : m[i - 1].outs[0];
        m[i].ins[1] <== p[i % 4];
        m[i].k <== 0;
    }
    out <== m[n - 1].outs[0];
}

component main {public [p]} = MimcChain(2);
