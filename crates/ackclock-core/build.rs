//! Optimised builds compile with the recorded execution profile, or record
//! one (pgo/README.md); cargo does not know these are inputs. A new profile,
//! or a change of ACKCLOCK_PGO or ACKCLOCK_PGO_RECORD, rebuilds this crate
//! and so every crate above it.

fn main() {
    println!("cargo:rerun-if-changed=../../pgo/ackclock.profdata");
    println!("cargo:rerun-if-env-changed=ACKCLOCK_PGO");
    println!("cargo:rerun-if-env-changed=ACKCLOCK_PGO_RECORD");
}
