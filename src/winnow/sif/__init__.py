"""sif (Manber 1994): index, one-against-all queries, groups, directory comparison."""
