//! Who may join a seek: one rule for the lobby (which leaves out the seeks a viewer would be
//! refused) and for `join_match` (which refuses them), so the two never disagree.

use boardcast_protocol::{ErrorArgs, ErrorCode};

/// What a seek asks of whoever joins it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeekTerms {
    pub rated: bool,
    /// The largest rating difference to `creator_rating` a joiner may have; `None` for anyone.
    pub rating_range: Option<u16>,
    /// The creator's rating (rounded); `None` for a guest, who only creates casual seeks.
    pub creator_rating: Option<i32>,
}

/// Why a seek may not be joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SeekRefusal {
    #[error("this is a rated match: sign in to play rated games")]
    MembersOnly,
    #[error("your rating {rating} is more than {range} from the creator's {creator}")]
    OutsideRatingRange {
        rating: i32,
        creator: i32,
        range: u16,
    },
    #[error("a rated game against oneself is not allowed")]
    AgainstOneself,
}

impl SeekRefusal {
    /// The protocol's code for this refusal.
    pub fn code(self) -> ErrorCode {
        match self {
            SeekRefusal::MembersOnly => ErrorCode::MembersOnly,
            SeekRefusal::OutsideRatingRange { .. } => ErrorCode::OutsideRatingRange,
            SeekRefusal::AgainstOneself => ErrorCode::NotAllowed,
        }
    }

    /// Its reason and arguments (PROTOCOL.md §12.1).
    pub fn args(self) -> ErrorArgs {
        // Ratings are Glicko-2 values near 1500; a negative one (never stored) reads as 0.
        let rating = |value: i32| u64::try_from(value).unwrap_or(0);
        match self {
            SeekRefusal::MembersOnly => ErrorArgs::new("rated_seek"),
            SeekRefusal::OutsideRatingRange {
                rating: own,
                creator,
                range,
            } => ErrorArgs::new("outside_range")
                .number("rating", rating(own))
                .number("creator", rating(creator))
                .number("range", range),
            SeekRefusal::AgainstOneself => ErrorArgs::new("rated_against_oneself"),
        }
    }
}

/// Whether a viewer may join a seek: `joiner_rating` is `None` for a guest; `myself` when the
/// joiner holds the seek's other seat (`join_match` `myself`).
pub fn may_join(
    terms: &SeekTerms,
    joiner_rating: Option<i32>,
    myself: bool,
) -> Result<(), SeekRefusal> {
    if !terms.rated {
        return Ok(());
    }
    if myself {
        return Err(SeekRefusal::AgainstOneself);
    }
    let Some(rating) = joiner_rating else {
        return Err(SeekRefusal::MembersOnly);
    };
    match (terms.rating_range, terms.creator_rating) {
        (Some(range), Some(creator)) if rating.abs_diff(creator) > u32::from(range) => {
            Err(SeekRefusal::OutsideRatingRange {
                rating,
                creator,
                range,
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATED_200: SeekTerms = SeekTerms {
        rated: true,
        rating_range: Some(200),
        creator_rating: Some(1600),
    };

    #[test]
    fn a_casual_seek_is_open_to_anyone_even_oneself() {
        let casual = SeekTerms {
            rated: false,
            rating_range: None,
            creator_rating: None,
        };
        assert_eq!(may_join(&casual, None, false), Ok(()));
        assert_eq!(may_join(&casual, None, true), Ok(()));
    }

    #[test]
    fn a_rated_seek_refuses_guests_oneself_and_ratings_outside_its_range() {
        assert_eq!(
            may_join(&RATED_200, None, false),
            Err(SeekRefusal::MembersOnly)
        );
        assert_eq!(
            may_join(&RATED_200, Some(1600), true),
            Err(SeekRefusal::AgainstOneself)
        );
        assert_eq!(may_join(&RATED_200, Some(1400), false), Ok(()));
        assert_eq!(may_join(&RATED_200, Some(1800), false), Ok(()));
        let refusal = may_join(&RATED_200, Some(1801), false).unwrap_err();
        assert_eq!(refusal.code(), ErrorCode::OutsideRatingRange);
        assert_eq!(
            refusal.to_string(),
            "your rating 1801 is more than 200 from the creator's 1600"
        );
        assert!(may_join(&RATED_200, Some(1399), false).is_err());
        let open = SeekTerms {
            rating_range: None,
            ..RATED_200
        };
        assert_eq!(may_join(&open, Some(400), false), Ok(()));
    }
}
