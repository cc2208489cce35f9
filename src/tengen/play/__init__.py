"""Move choice for the GTP engine until search lands: a simple, honest rule-based policy."""
