// expected-error @+1 {{'tile.gemm' op no target: pass --target=<sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_103a, sm_120, sm_120a> or give the description a target field}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }
