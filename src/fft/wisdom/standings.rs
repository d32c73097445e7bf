//! How fast each of a pick's winning variants is, from the rounds that timed them: a standing
//! per candidate (the log of its speed), so that the wisdom's best is found in one order-free
//! ranking.
//!
//! A gain is over the pick's code in the run that measured it, and that code changes from
//! session to session under an unchanged kernel name (C2C 337's pick ran 0.389 ms in the
//! fifty-first session's rounds and 0.260 ms in the sixty-second's). Gains of two runs do not
//! compare; ratios of two candidates timed in one run do. So the standings come from those
//! ratios alone, chained through candidates a later run re-timed beside others: where A beat B
//! in one run and B beat C in another, A stands above C though no run timed both. Only between
//! groups of candidates that no such chain joins do least gains decide.
//!
//! Before the sixty-second session the best was found by a `reduce` comparing each candidate
//! with the best so far, by shared rounds or else least gains: it depended on the order, and
//! 337's re-timed entry (1.21x over a pick that had got faster, 1.69x in the run that found it,
//! where it beat `radix<=32` by 1.11x) gave way to `radix<=32`, which ran 0.88x of it in the
//! sweep.

use super::RoundGains;

/// Least-squares standings: for each pair of candidates timed in shared rounds, the mean log
/// ratio of their gains there is the difference their standings should have; each group of
/// candidates so joined is then placed so that its mean standing is its members' mean log
/// least gain (`least_gains`, the table's fourth column).
pub(super) fn standings(rounds: &[&RoundGains], least_gains: &[f64]) -> Vec<f64> {
    let n = rounds.len();
    // Each candidate's neighbours and how much faster (log) it ran than each.
    let mut beside: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a) {
            let logs: Vec<f64> = rounds[a].iter().filter_map(|(r, g)| rounds[b].iter().find(|o| o.0 == *r).map(|o| (g / o.1).ln())).collect();
            if !logs.is_empty() {
                beside[a].push((b, logs.iter().sum::<f64>() / logs.len() as f64));
            }
        }
    }
    let least: Vec<f64> = least_gains.iter().map(|g| g.ln()).collect();
    let mut standing = vec![0.0; n];
    let mut placed = vec![false; n];
    for start in 0..n {
        if placed[start] {
            continue;
        }
        // The group joined to `start` by shared rounds.
        placed[start] = true;
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            for &(b, _) in &beside[members[next]] {
                if !placed[b] {
                    placed[b] = true;
                    members.push(b);
                }
            }
            next += 1;
        }
        let fitted = fit_group(&members, &beside);
        // Placed so that its mean standing is its members' mean log least gain.
        let shift = members.iter().zip(&fitted).map(|(&i, f)| least[i] - f).sum::<f64>() / members.len() as f64;
        for (&i, f) in members.iter().zip(&fitted) {
            standing[i] = f + shift;
        }
    }
    standing
}

/// The least-squares standings of one joined group (its first member at 0): the graph
/// Laplacian's normal equations, sum over b beside a of (s_a - s_b) = sum of the measured
/// differences, solved directly with the first standing fixed (the rest of the system is then
/// regular, the group being connected). A pick has a few dozen candidates at most.
fn fit_group(members: &[usize], beside: &[Vec<(usize, f64)>]) -> Vec<f64> {
    let m = members.len();
    let index = |candidate: usize| members.iter().position(|&x| x == candidate).expect("a neighbour is in the group");
    // Rows and columns 1..m (standing 0 fixed at 0), right-hand side in the last column.
    let mut system = vec![vec![0.0; m]; m - 1];
    for (row, &a) in members.iter().enumerate().skip(1) {
        for &(b, difference) in &beside[a] {
            system[row - 1][row - 1] += 1.0;
            let col = index(b);
            if col > 0 {
                system[row - 1][col - 1] -= 1.0;
            }
            system[row - 1][m - 1] += difference;
        }
    }
    let solved = solve(system);
    std::iter::once(0.0).chain(solved).collect()
}

/// Gaussian elimination with partial pivoting of an augmented k x (k + 1) system.
fn solve(mut system: Vec<Vec<f64>>) -> Vec<f64> {
    let k = system.len();
    for col in 0..k {
        let pivot = (col..k).max_by(|&a, &b| system[a][col].abs().total_cmp(&system[b][col].abs())).expect("a column has rows");
        system.swap(col, pivot);
        for row in col + 1..k {
            let factor = system[row][col] / system[col][col];
            let (above, below) = system.split_at_mut(row);
            for (value, pivot_value) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                *value -= factor * pivot_value;
            }
        }
    }
    let mut x = vec![0.0; k];
    for row in (0..k).rev() {
        let known: f64 = (row + 1..k).map(|c| system[row][c] * x[c]).sum();
        x[row] = (system[row][k] - known) / system[row][row];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// Two candidates of one run stand apart by their measured ratio; a chain through a
    /// candidate re-timed in a later run carries it on; a candidate no run timed beside the
    /// others stands by its least gain.
    #[test]
    fn standings_chain_in_run_ratios() {
        // Run 0: A 1.65, B 1.50. Run 1: B 1.20, C 1.32 (the pick got faster). D alone, run 2.
        let a: RoundGains = vec![(0, 1.65)];
        let b: RoundGains = vec![(0, 1.50), (1, 1.20)];
        let c: RoundGains = vec![(1, 1.32)];
        let d: RoundGains = vec![(2, 1.40)];
        let s = standings(&[&a, &b, &c, &d], &[1.65, 1.20, 1.32, 1.40]);
        assert!(close(s[0] - s[1], (1.65f64 / 1.50).ln()), "{s:?}");
        assert!(close(s[2] - s[1], (1.32f64 / 1.20).ln()), "{s:?}");
        // A and C were never timed together; both beat B by 10%.
        assert!(close(s[0], s[2]), "{s:?}");
        assert!(close(s[3], 1.40f64.ln()), "{s:?}");
        // The group's mean standing is its mean log least gain.
        assert!(close((s[0] + s[1] + s[2]) / 3.0, (1.65f64.ln() + 1.20f64.ln() + 1.32f64.ln()) / 3.0), "{s:?}");
    }

    /// Where the runs disagree around a loop, the standings split the difference.
    #[test]
    fn standings_fit_a_loop_by_least_squares() {
        // A over B by 10% (run 0), B over C by 10% (run 1), C over A by 10% (run 2).
        let a: RoundGains = vec![(0, 1.1), (2, 1.0)];
        let b: RoundGains = vec![(0, 1.0), (1, 1.1)];
        let c: RoundGains = vec![(1, 1.0), (2, 1.1)];
        let s = standings(&[&a, &b, &c], &[1.0, 1.0, 1.0]);
        assert!(close(s[0], s[1]) && close(s[1], s[2]), "{s:?}");
    }
}
