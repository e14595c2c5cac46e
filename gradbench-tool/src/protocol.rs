//! The messages: a response for every message, with `success` and `output` for `define` and
//! `evaluate`, and one `evaluate` timing per run of the function.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The response to one line of input. A line that is not a message gets an error response
/// (without an id, there is no message to answer).
pub fn respond(line: &str) -> Value {
    let message: Value = match serde_json::from_str(line) {
        Ok(m) => m,
        Err(e) => return json!({ "success": false, "error": format!("not JSON: {e}") }),
    };
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    match message.get("kind").and_then(Value::as_str) {
        Some("start") => json!({ "id": id, "tool": "stackgrad" }),
        Some("define") => {
            let module = message.get("module").and_then(Value::as_str).unwrap_or("");
            if crate::evals::MODULES.contains(&module) {
                json!({ "id": id, "success": true })
            } else {
                json!({ "id": id, "success": false, "error": format!("no module `{module}` in stackgrad's tool") })
            }
        }
        Some("evaluate") => {
            let field = |name: &str| message.get(name).and_then(Value::as_str).unwrap_or("");
            let input = message.get("input").cloned().unwrap_or(Value::Null);
            match crate::evals::evaluate(field("module"), field("function"), &input) {
                Ok((output, runs)) => {
                    let timings: Vec<Value> = (runs.iter())
                        .map(|d| json!({ "name": "evaluate", "nanoseconds": d.as_nanos() as u64 }))
                        .collect();
                    json!({ "id": id, "success": true, "output": output, "timings": timings })
                }
                Err(e) => json!({ "id": id, "success": false, "error": e }),
            }
        }
        // `analysis` and anything else: acknowledged.
        _ => json!({ "id": id }),
    }
}

/// How often to run a function: `min_runs` times, and until `min_seconds` have passed
/// (GradBench's `Runs`); once for an input without them.
pub struct Runs {
    min_runs: u64,
    min_seconds: f64,
}

impl Runs {
    pub fn of(input: &Value) -> Runs {
        Runs {
            min_runs: input
                .get("min_runs")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1),
            min_seconds: input
                .get("min_seconds")
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
        }
    }

    /// Runs `f` as often as asked, timing each run; the last run's result and every time.
    pub fn time<R>(&self, mut f: impl FnMut() -> R) -> (R, Vec<Duration>) {
        let mut times = Vec::new();
        let mut total = Duration::ZERO;
        loop {
            let start = Instant::now();
            let result = std::hint::black_box(f());
            let took = start.elapsed();
            times.push(took);
            total += took;
            if times.len() as u64 >= self.min_runs && total.as_secs_f64() >= self.min_seconds {
                return (result, times);
            }
        }
    }
}

/// A field of the input as a vector of floats.
pub fn floats(input: &Value, name: &str) -> Result<Vec<f64>, String> {
    let values = input
        .get(name)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("the input has no array `{name}`"))?;
    values
        .iter()
        .map(|v| {
            v.as_f64()
                .ok_or_else(|| format!("`{name}` holds {v}, not a number"))
        })
        .collect()
}

/// A field of the input as a count.
pub fn count(input: &Value, name: &str) -> Result<usize, String> {
    input
        .get(name)
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .ok_or_else(|| format!("the input has no count `{name}`"))
}

/// Rows of equal length, flattened; their length.
pub fn rows(input: &Value, name: &str) -> Result<(Vec<f64>, usize), String> {
    let rows = input
        .get(name)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("the input has no array `{name}`"))?;
    let d = rows.first().and_then(Value::as_array).map_or(0, Vec::len);
    let mut flat = Vec::with_capacity(rows.len() * d);
    for row in rows {
        let row = row
            .as_array()
            .filter(|r| r.len() == d)
            .ok_or_else(|| format!("`{name}` must hold rows of {d} numbers"))?;
        for v in row {
            flat.push(
                v.as_f64()
                    .ok_or_else(|| format!("`{name}` holds {v}, not a number"))?,
            );
        }
    }
    Ok((flat, d))
}
