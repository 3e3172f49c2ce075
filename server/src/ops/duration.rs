//! Durations as operators write them on the command line: `250ms`, `30s`, `5m`, or a bare
//! number of seconds. A leaf, shared by the server's flags and the channels' flags.

use std::time::Duration;

/// Parses `250ms`, `30s`, `5m` or a bare number of seconds; the error says what was expected.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration such as 250ms, 30s or 5m"))?;
    match unit {
        "ms" => Ok(Duration::from_millis(n)),
        "s" => Ok(Duration::from_secs(n)),
        "m" => Ok(Duration::from_secs(n * 60)),
        _ => Err(format!("`{text}`: unknown unit `{unit}` (use ms, s or m)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_milliseconds_seconds_minutes_or_bare_seconds() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration(" 7 "), Ok(Duration::from_secs(7)));
    }

    #[test]
    fn a_bad_duration_says_what_was_expected() {
        assert_eq!(
            parse_duration("7h"),
            Err("`7h`: unknown unit `h` (use ms, s or m)".to_string())
        );
        assert_eq!(
            parse_duration("ms"),
            Err("`ms` is not a duration such as 250ms, 30s or 5m".to_string())
        );
    }
}
