//! Which vector instructions the runtime's kernels run on, and how to cap them.
//!
//! The matrix products of [`crate::nn`] and the element-wise loops around them (layer norm,
//! attention, the optimizers' updates) are compiled once per instruction set and the widest the
//! CPU has is chosen when they run ([`vector_path`]). With `std` that is detected at run time, so
//! one binary built for plain x86-64 runs AVX2 or AVX-512 code where the CPU has it; without
//! `std` it follows the target features of the build (`-C target-cpu=...`).
//!
//! # Capping the path: `STACKGRAD_MAX_ISA`
//!
//! With `std`, the environment variable `STACKGRAD_MAX_ISA` caps the choice at `portable`,
//! `avx2` or `avx512` (as oneDNN's `ONEDNN_MAX_CPU_ISA` does): to compare the paths on one
//! machine, to see what a user's AVX2 core will run, or to rule a path out when chasing a
//! difference in the last bits (the paths round differently: only the AVX2 and AVX-512 matrix
//! kernels fuse their multiply-adds). It is read once, by the first kernel or loop that runs. A cap above
//! what the CPU has changes nothing; a value that is none of the three is reported once on
//! standard error and ignored.
//!
//! ```
//! use autodiff_runtime::cpu::{VectorPath, vector_path};
//!
//! let path = vector_path();
//! assert!(VectorPath::available().any(|p| p == path));
//! println!("kernels run on {path}");
//! ```

use core::fmt;

/// The environment variable that caps [`vector_path`] (with `std`).
pub const MAX_ISA_VAR: &str = "STACKGRAD_MAX_ISA";

/// An instruction set the kernels are compiled for, from the narrowest to the widest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum VectorPath {
    /// Any CPU: the baseline of the target (SSE2 on x86-64, NEON on aarch64), multiply-adds
    /// not fused.
    Portable,
    /// AVX2 and FMA: 16 vector registers of 8 `f32` lanes.
    Avx2,
    /// AVX-512 F/VL/BW/DQ/CD: 32 vector registers of 16 `f32` lanes.
    Avx512,
}

impl VectorPath {
    /// The name `STACKGRAD_MAX_ISA` takes for this path.
    pub const fn name(self) -> &'static str {
        match self {
            VectorPath::Portable => "portable",
            VectorPath::Avx2 => "avx2",
            VectorPath::Avx512 => "avx512",
        }
    }

    /// The path named `name` (case-insensitive), as `STACKGRAD_MAX_ISA` takes it.
    pub fn from_name(name: &str) -> Option<VectorPath> {
        [VectorPath::Portable, VectorPath::Avx2, VectorPath::Avx512]
            .into_iter()
            .find(|path| path.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Every path this CPU can run (whatever the cap), the portable one first: detected at run
    /// time with `std` on x86; elsewhere the portable path and the one the build's target
    /// features select.
    pub fn available() -> impl Iterator<Item = VectorPath> {
        [VectorPath::Portable, VectorPath::Avx2, VectorPath::Avx512]
            .into_iter()
            .filter(|&path| path.runs_here())
    }

    /// Whether this CPU (with `std` on x86) or this build (otherwise) can run the path.
    pub fn runs_here(self) -> bool {
        #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
        return match self {
            VectorPath::Portable => true,
            VectorPath::Avx2 => pulp::x86::V3::try_new().is_some(),
            VectorPath::Avx512 => pulp::x86::V4::try_new().is_some(),
        };
        #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
        return self == VectorPath::Portable || self == VectorPath::best_static();
    }

    /// The path the target features of the build allow (without `std`).
    #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
    const fn best_static() -> VectorPath {
        if cfg!(all(target_feature = "avx512f", target_feature = "fma")) {
            VectorPath::Avx512
        } else if cfg!(all(target_feature = "avx2", target_feature = "fma")) {
            VectorPath::Avx2
        } else {
            VectorPath::Portable
        }
    }
}

/// `"avx2".parse::<VectorPath>()`: the names [`VectorPath::from_name`] takes.
impl core::str::FromStr for VectorPath {
    type Err = UnknownVectorPath;

    fn from_str(name: &str) -> Result<VectorPath, UnknownVectorPath> {
        VectorPath::from_name(name).ok_or(UnknownVectorPath)
    }
}

/// A name that is none of `portable`, `avx2`, `avx512` (the error of parsing a [`VectorPath`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownVectorPath;

impl fmt::Display for UnknownVectorPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a vector path: expected portable, avx2 or avx512")
    }
}

impl core::error::Error for UnknownVectorPath {}

impl fmt::Display for VectorPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VectorPath::Portable => "portable",
            VectorPath::Avx2 => "AVX2 + FMA",
            VectorPath::Avx512 => "AVX-512",
        })
    }
}

/// The path the kernels run on: the widest this CPU has, capped by `STACKGRAD_MAX_ISA` (with
/// `std`; read once).
pub fn vector_path() -> VectorPath {
    #[cfg(feature = "std")]
    {
        static CHOSEN: std::sync::OnceLock<VectorPath> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let cap = std::env::var_os(MAX_ISA_VAR).map(|v| v.to_string_lossy().into_owned());
            let (path, unknown) = capped(fastest(), cap.as_deref());
            if unknown {
                std::eprintln!(
                    "stackgrad: {MAX_ISA_VAR}={:?} is not one of portable, avx2, avx512; \
                     ignored (the kernels run on {path})",
                    cap.unwrap_or_default()
                );
            }
            path
        })
    }
    #[cfg(not(feature = "std"))]
    fastest()
}

/// The widest path this CPU can run.
fn fastest() -> VectorPath {
    VectorPath::available()
        .last()
        .unwrap_or(VectorPath::Portable)
}

/// `fastest` capped by the variable's value `cap`, and whether `cap` named no path.
#[cfg(feature = "std")]
fn capped(fastest: VectorPath, cap: Option<&str>) -> (VectorPath, bool) {
    match cap.map(VectorPath::from_name) {
        None => (fastest, false),
        Some(Some(cap)) => (fastest.min(cap), false),
        Some(None) => (fastest, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_ignore_case_and_spaces() {
        for path in [VectorPath::Portable, VectorPath::Avx2, VectorPath::Avx512] {
            assert_eq!(VectorPath::from_name(path.name()), Some(path));
        }
        assert_eq!(VectorPath::from_name(" AVX2\n"), Some(VectorPath::Avx2));
        assert_eq!(VectorPath::from_name("avx-512"), None);
        assert_eq!(VectorPath::from_name(""), None);
        assert_eq!("AVX512".parse(), Ok(VectorPath::Avx512));
        assert_eq!("sse9".parse::<VectorPath>(), Err(UnknownVectorPath));
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_cap_lowers_the_path_and_never_raises_it() {
        use VectorPath::*;
        assert_eq!(capped(Avx512, None), (Avx512, false));
        assert_eq!(capped(Avx512, Some("avx2")), (Avx2, false));
        assert_eq!(capped(Avx512, Some("portable")), (Portable, false));
        assert_eq!(capped(Avx2, Some("avx512")), (Avx2, false));
        assert_eq!(capped(Portable, Some("avx2")), (Portable, false));
    }

    #[cfg(feature = "std")]
    #[test]
    fn an_unknown_cap_is_reported_and_ignored() {
        assert_eq!(
            capped(VectorPath::Avx2, Some("sse9")),
            (VectorPath::Avx2, true)
        );
    }

    #[test]
    fn the_path_in_use_runs_here_and_the_portable_one_always_does() {
        assert!(vector_path().runs_here());
        assert_eq!(VectorPath::available().next(), Some(VectorPath::Portable));
    }
}
