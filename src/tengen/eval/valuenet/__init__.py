"""tengen's own multi-komi value and ownership network (BV-ML-VN): its inputs, model, weights and evaluator."""
