"""Protocol adapters: GTP engine and client, analysis JSON, reports. Thin layers over the capabilities."""
