//! Checkpoint loading on arbitrary bytes: `checkpoint::from_bytes` returns a `CheckpointError` or
//! parameters that save and load back bit for bit, never a panic. The parameters are those of
//! `autodiff-runtime/tests/data/torch_checkpoint.safetensors` (a good seed: copy it into
//! `fuzz/corpus/safetensors/`), read as `f32` and as `f64`.
#![no_main]

use autodiff_macros::Parameters;
use autodiff_runtime::checkpoint::{self, CheckpointError};
use autodiff_runtime::{Float, Parameters};
use libfuzzer_sys::fuzz_target;

macro_rules! torch_model {
    ($model:ident, $layer:ident, $head:ident, $f:ty) => {
        #[derive(Parameters)]
        #[parameters(crate = "autodiff_runtime")]
        struct $layer {
            w: [[$f; 3]; 3],
            b: [$f; 3],
        }
        #[derive(Parameters)]
        #[parameters(crate = "autodiff_runtime")]
        struct $head {
            w: [[$f; 3]; 1],
            b: [$f; 1],
        }
        #[derive(Parameters)]
        #[parameters(crate = "autodiff_runtime")]
        struct $model {
            layers: [$layer; 2],
            head: $head,
            scale: $f,
        }
    };
}
torch_model!(Torch32, Layer32, Head32, f32);
torch_model!(Torch64, Layer64, Head64, f64);

/// Every value's bits, in order.
fn bits<P: Parameters>(p: &P) -> Vec<u64> {
    let mut out = Vec::new();
    p.for_each_tensor(|_, _, values| out.extend(values.iter().map(|v| v.to_f64().to_bits())));
    out
}

fn check<P: Parameters>(data: &[u8]) {
    match checkpoint::from_bytes::<P>(data) {
        Ok(p) => {
            let again: P = checkpoint::from_bytes(&checkpoint::to_bytes(&p).unwrap()).unwrap();
            assert_eq!(bits(&again), bits(&p));
        }
        Err(err) => {
            assert!(!err.to_string().is_empty());
            assert!(
                matches!(
                    err,
                    CheckpointError::Format(_)
                        | CheckpointError::MissingTensor { .. }
                        | CheckpointError::UnexpectedTensor { .. }
                        | CheckpointError::DtypeMismatch { .. }
                        | CheckpointError::ShapeMismatch { .. }
                ),
                "{err}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check::<Torch32>(data);
    check::<Torch64>(data);
});
