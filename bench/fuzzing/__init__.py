"""The pieces of `bench/fuzz.py`: inputs, outcomes, workers and named cases."""
