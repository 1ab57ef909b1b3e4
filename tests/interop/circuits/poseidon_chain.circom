pragma circom 2.0.0;

include "poseidon.circom";

// A chain of circomlib Poseidon hashes: h_0 = Poseidon(seed, k0),
// h_{i+1} = Poseidon(h_i, k_{i mod 3}); the three keys are public.
template PoseidonChain(n) {
    signal input seed;
    signal input k[3];
    signal output out;

    component h[n];
    for (var i = 0; i < n; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? seed : h[i - 1].out;
        h[i].inputs[1] <== k[i % 3];
    }
    out <== h[n - 1].out;
}

component main {public [k]} = PoseidonChain(7);
