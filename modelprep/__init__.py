"""Set-up tooling: prepares the embedding model from installed package files (run by `policyrag setup`)."""
