"""Advanced indexing and the indexing routines (masks, gathers, scatters, index generators)."""
