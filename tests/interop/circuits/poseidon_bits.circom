pragma circom 2.0.0;

include "poseidon.circom";
include "bitify.circom";

// The circom benchmark circuit (scripts/bench-circom.sh): a chain of
// circomlib Poseidon hashes with bit decompositions,
// h_0 = Poseidon(seed, k0), h_{i+1} = Poseidon(h_i, k_{i mod 3}), and every
// second h_i split into its 254 bits by Num2Bits, so that about a third of
// the witness values are bits and the rest full field elements.
template PoseidonBits(n) {
    signal input seed;
    signal input k[3];
    signal output out;

    component h[n];
    component bits[n \ 2];
    for (var i = 0; i < n; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? seed : h[i - 1].out;
        h[i].inputs[1] <== k[i % 3];
        if (i % 2 == 1) {
            bits[i \ 2] = Num2Bits(254);
            bits[i \ 2].in <== h[i].out;
        }
    }
    out <== h[n - 1].out;
}

component main {public [k]} = PoseidonBits(178);
