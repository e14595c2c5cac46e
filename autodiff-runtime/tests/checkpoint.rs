//! Checkpoints: round trips, and each kind of mismatch as a typed error.

use autodiff_macros::Parameters;
use autodiff_runtime::Parameters;
use autodiff_runtime::checkpoint::{self, CheckpointError, TrainState};

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Norm {
    g: [f32; 3],
    b: [f32; 3],
}

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Model {
    blocks: [Norm; 2],
    w: [[f32; 3]; 2],
    t: f32,
}

/// A model whose every scalar is distinct, including values that are not exact in decimal.
fn filled() -> Model {
    let mut m = Model::zeroed();
    let mut i = 0.0f32;
    m.for_each_mut(|x| {
        i += 1.0;
        *x = (i / 3.0)
            * if (i as u32).is_multiple_of(2) {
                -1.0
            } else {
                1e-3
            };
    });
    m
}

#[test]
fn round_trip_through_a_file_is_exact() {
    let model = filled();
    let path = std::env::temp_dir().join(format!(
        "autodiff-runtime-ckpt-{}.safetensors",
        std::process::id()
    ));
    checkpoint::save(&model, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        bytes,
        checkpoint::to_bytes(&model).unwrap(),
        "the streamed file"
    );
    let back: Model = checkpoint::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(back, model);
}

#[test]
fn round_trip_in_f64() {
    #[derive(Parameters, Debug, PartialEq)]
    #[parameters(crate = "autodiff_runtime")]
    struct P {
        w: [[[f64; 2]; 2]; 2],
        s: f64,
    }
    let mut p = P::zeroed();
    p.w[1][0][1] = 1.0 / 3.0;
    p.s = -f64::MIN_POSITIVE;
    assert_eq!(
        checkpoint::from_bytes::<P>(&checkpoint::to_bytes(&p).unwrap()).unwrap(),
        p
    );
}

#[test]
fn missing_extra_and_misshapen_tensors_are_errors() {
    let bytes = checkpoint::to_bytes(&filled()).unwrap();

    // A struct with one more field: that tensor is missing from the file.
    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct More {
        blocks: [Norm; 2],
        w: [[f32; 3]; 2],
        t: f32,
        u: f32,
    }
    let err = checkpoint::from_bytes::<More>(&bytes).unwrap_err();
    assert!(
        matches!(&err, CheckpointError::MissingTensor { name } if name == "u"),
        "{err}"
    );
    assert_eq!(err.to_string(), "the checkpoint has no tensor `u`");

    // A struct with fewer fields: the file has tensors it does not expect.
    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct Fewer {
        blocks: [Norm; 2],
        w: [[f32; 3]; 2],
    }
    let err = checkpoint::from_bytes::<Fewer>(&bytes).unwrap_err();
    assert!(
        matches!(&err, CheckpointError::UnexpectedTensor { name } if name == "t"),
        "{err}"
    );

    // Same names, another shape.
    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct Transposed {
        blocks: [Norm; 2],
        w: [[f32; 2]; 3],
        t: f32,
    }
    let err = checkpoint::from_bytes::<Transposed>(&bytes).unwrap_err();
    assert!(
        matches!(&err, CheckpointError::ShapeMismatch { name, expected, found }
            if name == "w" && expected == &[3, 2] && found == &[2, 3]),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "tensor `w` has shape [2, 3], expected [3, 2]"
    );

    // Fewer array elements: `blocks.1.*` are unexpected.
    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct OneBlock {
        blocks: [Norm; 1],
        w: [[f32; 3]; 2],
        t: f32,
    }
    let err = checkpoint::from_bytes::<OneBlock>(&bytes).unwrap_err();
    assert!(
        matches!(&err, CheckpointError::UnexpectedTensor { name } if name == "blocks.1.b"),
        "{err}"
    );
}

#[test]
fn corrupt_bytes_and_missing_files_are_errors() {
    let mut bytes = checkpoint::to_bytes(&filled()).unwrap();
    bytes.truncate(bytes.len() - 1);
    assert!(matches!(
        checkpoint::from_bytes::<Model>(&bytes).unwrap_err(),
        CheckpointError::Format(_)
    ));
    assert!(matches!(
        checkpoint::from_bytes::<Model>(b"").unwrap_err(),
        CheckpointError::Format(_)
    ));
    assert!(matches!(
        checkpoint::from_bytes::<Model>(&[0xff; 64]).unwrap_err(),
        CheckpointError::Format(_)
    ));
    let err = checkpoint::load::<Model>("/nonexistent/dir/model.safetensors").unwrap_err();
    assert!(matches!(err, CheckpointError::Io { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("/nonexistent/dir/model.safetensors: ")
    );
}

/// Saving replaced the file with `safetensors`' temporary file, so a checkpoint became owner-only
/// (0o600) whatever its permissions or the umask, and a symbolic link to the latest checkpoint
/// became a file of its own, the file it pointed to left as it was.
#[cfg(unix)]
#[test]
fn saving_keeps_permissions_and_writes_through_a_symbolic_link() {
    use std::os::unix::fs::{PermissionsExt, symlink};

    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let dir =
        std::env::temp_dir().join(format!("autodiff-runtime-ckpt-perm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let model = filled();
    let bytes = checkpoint::to_bytes(&model).unwrap();

    // A new file gets what any new file gets (0o666 less the umask).
    let reference = dir.join("reference");
    std::fs::write(&reference, b"").unwrap();
    let path = dir.join("model.safetensors");
    checkpoint::save(&model, &path).unwrap();
    assert_eq!(mode(&path), mode(&reference));
    // An existing file keeps its own, for both kinds of save.
    // A read-only one too: the new file is written and synced before it gets the permissions.
    for m in [0o640, 0o604, 0o444] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(m)).unwrap();
        checkpoint::save(&model, &path).unwrap();
        assert_eq!(mode(&path), m, "checkpoint::save");
        TrainState::new(1).save(&path).unwrap();
        assert_eq!(mode(&path), m, "TrainState::save");
    }

    // A link stays a link, relative or dangling, and the file it points to gets the checkpoint.
    let target = dir.join("real.safetensors");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("latest.safetensors");
    symlink("real.safetensors", &link).unwrap();
    checkpoint::save(&model, &link).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&target).unwrap(), bytes);
    TrainState::new(3).save(&link).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(TrainState::load(&target).unwrap().step(), 3);
    let dangling = dir.join("dangling.safetensors");
    symlink(dir.join("new.safetensors"), &dangling).unwrap();
    checkpoint::save(&model, &dangling).unwrap();
    assert_eq!(std::fs::read(dir.join("new.safetensors")).unwrap(), bytes);

    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "dangling.safetensors",
            "latest.safetensors",
            "model.safetensors",
            "new.safetensors",
            "real.safetensors",
            "reference"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
