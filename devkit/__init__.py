"""What only the tests and the benches use, kept out of the installed package: a slow, obviously-correct
reference solver (`reference_solver`), the shared endgame dev set as boards and trees (`devset`), and the
GNU Go / Fuego regression files (`regression_files`). Importable from the checkout: tests/conftest.py and
each bench put the repository root on the path."""
