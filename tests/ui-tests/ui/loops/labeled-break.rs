use stackgrad::differentiable;

// `break 'rows` from a loop inside a block used as a value: an error (from loops that are
// statements of the labelled loop's body it is supported).
#[differentiable]
fn f(x: &[[f64; 4]; 4]) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..4 {
        let row = {
            let mut t = 0.0;
            for j in 0..4 {
                if x[i][j] < 0.0 {
                    break 'rows;
                }
                t += x[i][j];
            }
            t
        };
        s += row;
    }
    s
}

fn main() {}
