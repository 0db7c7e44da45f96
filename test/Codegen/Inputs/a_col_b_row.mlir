tile.gemm @a_col_b_row { a = bf16 col, b = bf16 row, c = bf16 row, tile = [128, 128, 32], stages = 3, schedule = multistage }
