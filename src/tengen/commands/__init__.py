"""One module per `tengen` subcommand."""
