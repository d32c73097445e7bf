//! Parsing of the list arguments the commands share: `--axes 2,0,1`, `--by 3,-1,0`, and
//! numpy's negative axes (-1 the last).

use coalesce::{Error, Result};

/// `--axes 2,0,1` or `--by 3,-1,0`: comma-separated whole numbers.
pub fn parse_list<T: std::str::FromStr>(flag: &str, s: &str) -> Result<Vec<T>> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .map_err(|_| Error::InvalidArgument(format!("{flag} '{s}': '{x}' is not a whole number; give a comma-separated list such as 2,0,1")))
        })
        .collect()
}

/// Axes as numpy takes them, for an array of `shape`: -1 is the last axis, -ndim the first.
/// Axes past the last are passed on as they are, for the operation's own check to name.
pub fn numpy_axes(axes: &[i64], shape: &[usize]) -> Result<Vec<usize>> {
    let ndim = shape.len() as i64;
    axes.iter()
        .map(|&a| {
            let axis = if a < 0 { a + ndim } else { a };
            usize::try_from(axis).map_err(|_| {
                Error::InvalidArgument(format!("axis {a} is out of range for a {ndim}-d shape {shape:?}: axes go from {} to {}", -ndim, ndim - 1))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_axes_count_from_the_last() {
        assert_eq!(numpy_axes(&[-1, 0, -3], &[4, 5, 6]).unwrap(), vec![2, 0, 0]);
        assert_eq!(numpy_axes(&[3], &[4, 5, 6]).unwrap(), vec![3]);
        let err = numpy_axes(&[-4], &[4, 5, 6]).unwrap_err().to_string();
        assert!(err.contains("axis -4") && err.contains("from -3 to 2"), "{err}");
    }

    #[test]
    fn lists_are_comma_separated_whole_numbers() {
        assert_eq!(parse_list::<i64>("--by", "3, -1,0").unwrap(), vec![3, -1, 0]);
        let err = parse_list::<usize>("--axes", "1,x").unwrap_err().to_string();
        assert!(err.contains("--axes '1,x': 'x'"), "{err}");
    }
}
