//! The operator's channel flags: `--channels`, `--ply-interval` with per-channel overrides
//! (`2s,tv2=500ms`) and `--game-pause`, turned into a [`ChannelsConfig`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::registry::ChannelsConfig;
use crate::ops::duration::parse_duration;

/// `--ply-interval`: the default time between reveals, then optional `tvN=DURATION`
/// overrides, comma-separated: `2s`, `2s,tv2=500ms,tv3=5s`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyIntervals {
    pub default: Duration,
    /// `(channel number, interval)`: `tv2=500ms` is `(2, 500ms)`.
    pub overrides: Vec<(usize, Duration)>,
}

impl PlyIntervals {
    /// The interval of TV channel `number` (1-based).
    pub fn for_channel(&self, number: usize) -> Duration {
        self.overrides
            .iter()
            .rev()
            .find(|(n, _)| *n == number)
            .map_or(self.default, |(_, d)| *d)
    }
}

fn positive(text: &str) -> Result<Duration, String> {
    let duration = parse_duration(text)?;
    if duration.is_zero() {
        return Err(format!("`{text}`: a ply interval must be longer than zero"));
    }
    Ok(duration)
}

impl FromStr for PlyIntervals {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parts = text.split(',').map(str::trim);
        let default = positive(parts.next().unwrap_or_default())?;
        let mut overrides = Vec::new();
        for part in parts {
            let (channel, duration) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected tvN=DURATION, like tv2=500ms"))?;
            let number = channel
                .trim()
                .strip_prefix("tv")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n >= 1)
                .ok_or_else(|| format!("`{channel}`: TV channels are tv1, tv2, …"))?;
            overrides.push((number, positive(duration.trim())?));
        }
        Ok(PlyIntervals { default, overrides })
    }
}

impl fmt::Display for PlyIntervals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ms", self.default.as_millis())?;
        for (number, duration) in &self.overrides {
            write!(f, ",tv{number}={}ms", duration.as_millis())?;
        }
        Ok(())
    }
}

impl ChannelsConfig {
    /// The channel settings of the operator's flags: `--channels`, `--ply-interval`,
    /// `--game-pause`.
    pub fn from_flags(
        channels: usize,
        intervals: &PlyIntervals,
        pause: Duration,
    ) -> ChannelsConfig {
        ChannelsConfig {
            tv_intervals: (1..=channels).map(|n| intervals.for_channel(n)).collect(),
            default_interval: intervals.default,
            pause,
            ..ChannelsConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_intervals_parse_with_overrides() {
        let parsed: PlyIntervals = "2s, tv2=500ms,tv3=5s".parse().unwrap();
        assert_eq!(parsed.for_channel(1), Duration::from_secs(2));
        assert_eq!(parsed.for_channel(2), Duration::from_millis(500));
        assert_eq!(parsed.for_channel(3), Duration::from_secs(5));
        assert_eq!(parsed.to_string(), "2000ms,tv2=500ms,tv3=5000ms");
        let refusal = |text: &str| text.parse::<PlyIntervals>().unwrap_err();
        assert_eq!(
            refusal("0s"),
            "`0s`: a ply interval must be longer than zero"
        );
        assert_eq!(refusal("2s,tv0=1s"), "`tv0`: TV channels are tv1, tv2, …");
        assert_eq!(refusal("2s,x2=1s"), "`x2`: TV channels are tv1, tv2, …");
        assert_eq!(
            refusal("2s,tv2"),
            "`tv2`: expected tvN=DURATION, like tv2=500ms"
        );
        assert_eq!(
            refusal("2s,tv2=1h"),
            "`1h`: unknown unit `h` (use ms, s or m)"
        );
    }

    #[test]
    fn flags_become_a_channels_config() {
        let intervals: PlyIntervals = "1s,tv3=250ms".parse().unwrap();
        let channels = ChannelsConfig::from_flags(3, &intervals, Duration::from_secs(4));
        assert_eq!(
            channels.tv_intervals,
            vec![
                Duration::from_secs(1),
                Duration::from_secs(1),
                Duration::from_millis(250)
            ]
        );
        assert_eq!(channels.default_interval, Duration::from_secs(1));
        assert_eq!(channels.pause, Duration::from_secs(4));
    }
}
