"""Studies of the seed's ns-2 chapter (003), run on the chapter's own scripts
(benchmarks/ns2/) through `ackclock tcl`, each beside the chapter's published
numbers and, where benchmarks/ns2/reference.json has them, real ns-2's."""
