use stackgrad::differentiable;

#[differentiable]
fn f(x: &[[f64; 4]; 4]) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..4 {
        for j in 0..4 {
            if x[i][j] < 0.0 {
                break 'rows;
            }
            s += x[i][j];
        }
    }
    s
}

fn main() {}
