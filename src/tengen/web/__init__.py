"""`tengen serve`: the web UI, an adapter over `tengen.api` (layer 5). `create_app` builds the FastAPI app."""
