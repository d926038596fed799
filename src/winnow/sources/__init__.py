"""Sources: where documents come from (files, folders, archives) and what they are."""
