//! ADBench's input files (`data/adbench`) as the JSON inputs GradBench's evals send, read as
//! GradBench's `io.py` reads them: for the benches (`benches/adbench.rs` at the workspace's root,
//! `benches/ba.rs` here) and the tests, which run the evals on the repository's own data.

use std::path::Path;

use serde_json::{Value, json};

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The numbers of a whitespace-separated text, each with its place for the error.
fn numbers(text: &str, path: &Path) -> Result<Vec<f64>, String> {
    (text.split_whitespace().enumerate())
        .map(|(i, t)| {
            t.parse()
                .map_err(|_| format!("{}: number {} is `{t}`", path.display(), i + 1))
        })
        .collect()
}

/// A bundle-adjustment file (`n m p`, then one camera, point, weight and feature, which the
/// eval duplicates) as the `ba` eval's input.
pub fn ba_input(path: &Path) -> Result<Value, String> {
    let nums = numbers(&read(path)?, path)?;
    if nums.len() < 20 {
        return Err(format!(
            "{}: {} numbers, not the 20 of `n m p`, a camera, a point, a weight and a feature",
            path.display(),
            nums.len()
        ));
    }
    let count = |i: usize| -> Result<u64, String> {
        let v = nums[i];
        if v >= 0.0 && v.fract() == 0.0 {
            Ok(v as u64)
        } else {
            Err(format!("{}: count {} is {v}", path.display(), i + 1))
        }
    };
    Ok(json!({
        "n": count(0)?, "m": count(1)?, "p": count(2)?,
        "cam": &nums[3..14], "x": &nums[14..17], "w": nums[17], "feat": &nums[18..20],
    }))
}

/// A hand model folder (`bones.txt`, `vertices.txt`, `triangles.txt`) and a hand-tracking
/// instance (`n 26`, `n` correspondences with their points, for the complicated variant `n`
/// pairs of barycentric coordinates, then the 26 pose parameters) as the `ht` eval's input.
pub fn ht_input(model: &Path, hand: &Path, complicated: bool) -> Result<Value, String> {
    let field = |s: &str, path: &Path| -> Result<f64, String> {
        s.trim()
            .parse()
            .map_err(|_| format!("{}: `{s}` is not a number", path.display()))
    };
    let bones_path = model.join("bones.txt");
    let bones: Vec<Vec<String>> = (read(&bones_path)?.lines())
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(':').map(String::from).collect())
        .collect();
    let matrix = |b: &[String], at: usize| -> Result<Vec<Vec<f64>>, String> {
        if b.len() < at + 16 {
            return Err(format!(
                "{}: bone `{}` is short",
                bones_path.display(),
                b[0]
            ));
        }
        (0..4)
            .map(|r| {
                (0..4)
                    .map(|c| field(&b[at + 4 * r + c], &bones_path))
                    .collect()
            })
            .collect()
    };
    let (mut rel, mut inv, mut parents) = (Vec::new(), Vec::new(), Vec::new());
    for b in &bones {
        rel.push(matrix(b, 2)?);
        inv.push(matrix(b, 18)?);
        parents.push(field(&b[1], &bones_path)? as i64);
    }
    let nb = bones.len();
    let vertices_path = model.join("vertices.txt");
    let (mut positions, mut weights) = (Vec::new(), Vec::new());
    for line in read(&vertices_path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let a: Vec<&str> = line.split(':').collect();
        let at = |i: usize| -> Result<f64, String> {
            let s = a.get(i).ok_or_else(|| {
                format!(
                    "{}: a vertex of {} fields",
                    vertices_path.display(),
                    a.len()
                )
            })?;
            field(s, &vertices_path)
        };
        positions.push(vec![at(0)?, at(1)?, at(2)?, 1.0]);
        let mut w = vec![0.0; nb];
        for i in 0..at(8)? as usize {
            let b = at(9 + 2 * i)? as usize;
            let slot = w
                .get_mut(b)
                .ok_or_else(|| format!("{}: bone {b} of {nb}", vertices_path.display()))?;
            *slot = at(10 + 2 * i)?;
        }
        weights.push(w);
    }
    let triangles_path = model.join("triangles.txt");
    let triangles = (read(&triangles_path)?.lines())
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            (l.split(':'))
                .map(|x| field(x, &triangles_path).map(|v| v as usize))
                .collect::<Result<Vec<usize>, String>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let nums = numbers(&read(hand)?, hand)?;
    let n = nums.first().copied().unwrap_or(0.0) as usize;
    let need = 2 + 4 * n + if complicated { 2 * n } else { 0 } + 26;
    if nums.len() < need {
        return Err(format!(
            "{}: {} numbers, not the {need} of {n} correspondences",
            hand.display(),
            nums.len()
        ));
    }
    let (mut corr, mut points, mut us) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let at = 2 + 4 * i;
        corr.push(nums[at] as usize);
        points.push(nums[at + 1..at + 4].to_vec());
    }
    let mut at = 2 + 4 * n;
    if complicated {
        for _ in 0..n {
            us.push(nums[at..at + 2].to_vec());
            at += 2;
        }
    }
    Ok(json!({
        "theta": &nums[at..at + 26],
        "us": us,
        "data": {
            "correspondences": corr,
            "points": points,
            "model": {
                "bone_count": nb,
                "bone_names": bones.iter().map(|b| b[0].clone()).collect::<Vec<_>>(),
                "parents": parents,
                "base_relatives": rel,
                "inverse_base_absolutes": inv,
                "base_positions": positions,
                "weights": weights,
                "triangles": triangles,
                "is_mirrored": false,
            }
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(path: &str) -> std::path::PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/adbench")).join(path)
    }

    /// The files' shapes, against the counts in their names and ADBench's model: ba1 is 49
    /// cameras, 7776 points, 31843 observations; the big hand model has 22 bones, and its
    /// complicated instance 100 correspondences, each with a pair of barycentric coordinates.
    #[test]
    fn the_repositorys_files_as_the_evals_read_them() {
        let ba = ba_input(&data("ba/ba1_n49_m7776_p31843.txt")).unwrap();
        assert_eq!((ba["n"].as_u64(), ba["m"].as_u64()), (Some(49), Some(7776)));
        assert_eq!(ba["p"].as_u64(), Some(31843));
        assert!(crate::evals::ba::Problem::read(&ba).is_ok());
        let ht = ht_input(
            &data("ht/big/model"),
            &data("ht/big/hand1_t26_c100.txt"),
            true,
        )
        .unwrap();
        assert_eq!(ht["data"]["model"]["bone_count"].as_u64(), Some(22));
        assert_eq!(ht["us"].as_array().unwrap().len(), 100);
        assert_eq!(ht["theta"].as_array().unwrap().len(), 26);
        assert_eq!(ht["theta"][0].as_f64(), Some(1.75299));
        assert_eq!(ht["theta"][25].as_f64(), Some(1.367914));
        let problem = crate::evals::ht::Problem::read(&ht).unwrap();
        assert!(problem.complicated());
        // A missing file is an error naming it, not a panic.
        let e = ba_input(&data("ba/none.txt")).unwrap_err();
        assert!(e.contains("none.txt"), "{e}");
        let e = ht_input(&data("ht/big/model"), &data("ht/none.txt"), true).unwrap_err();
        assert!(e.contains("none.txt"), "{e}");
    }
}
