// STUB: to be replaced by its owner.
