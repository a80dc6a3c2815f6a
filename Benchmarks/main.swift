print("invalidating-benchmarks: the benchmarks land with issue 8.")
