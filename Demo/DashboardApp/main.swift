print("invalidating-dashboard: the demo lands with issue 6.")
