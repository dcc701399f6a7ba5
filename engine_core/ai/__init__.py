"""Computer players, hints and solvers, sized for the device (no allocation in their steps)."""
