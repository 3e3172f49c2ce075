//! Typed move entry: resolving what a player typed (`32-28`, `28x19`, `9x18x16`) against the
//! server's list of legal moves, and Tab completion over that list.

use boardcast_protocol::LegalMove;

/// What a typed move means against the legal list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Exactly one legal move: send this route.
    One(Vec<u8>),
    /// Several legal moves fit (indices into the legal list): ask which.
    Ambiguous(Vec<usize>),
    /// No legal move fits; the squares are sent as typed so the server can say why.
    Unlisted(Vec<u8>),
}

/// Why typed text is not a move at all; shown in the player's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAMove(pub String);

impl std::fmt::Display for NotAMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = crate::i18n::tr_args("local-not-a-move", &[("text", self.0.clone().into())]);
        f.write_str(&text)
    }
}

impl std::error::Error for NotAMove {}

/// The squares of typed notation: `32-28` → [32, 28]; `9x18x16` → [9, 18, 16].
pub fn parse_squares(text: &str) -> Result<Vec<u8>, NotAMove> {
    let error = || NotAMove(text.trim().to_owned());
    let squares: Vec<u8> = text
        .trim()
        .split(['-', 'x', 'X', ':', ' '])
        .filter(|part| !part.is_empty())
        .map(|part| part.parse::<u8>().ok().filter(|n| (1..=50).contains(n)))
        .collect::<Option<_>>()
        .ok_or_else(error)?;
    if squares.len() < 2 || squares.len() > boardcast_protocol::limits::MAX_ROUTE_SQUARES {
        return Err(error());
    }
    Ok(squares)
}

/// Resolves typed notation. A full path matches routes exactly; two squares match every legal
/// move from the first to the last square (captures sharing both are ambiguous).
pub fn resolve(text: &str, legal: &[LegalMove]) -> Result<Resolution, NotAMove> {
    let squares = parse_squares(text)?;
    if let Some(index) = legal
        .iter()
        .position(|m| m.notation == text.trim() || m.route == squares)
    {
        return Ok(Resolution::One(legal[index].route.clone()));
    }
    let candidates: Vec<usize> = legal
        .iter()
        .enumerate()
        .filter(|(_, m)| ends_match(&m.route, &squares))
        .map(|(index, _)| index)
        .collect();
    Ok(match candidates.as_slice() {
        [] => Resolution::Unlisted(squares),
        [one] => Resolution::One(legal[*one].route.clone()),
        _ => Resolution::Ambiguous(candidates),
    })
}

/// Legal moves from `origin` to `destination` (indices), for cursor entry.
pub fn between(legal: &[LegalMove], origin: u8, destination: u8) -> Vec<usize> {
    legal
        .iter()
        .enumerate()
        .filter(|(_, m)| ends_match(&m.route, &[origin, destination]))
        .map(|(index, _)| index)
        .collect()
}

fn ends_match(route: &[u8], squares: &[u8]) -> bool {
    squares.len() == 2 && route.first() == squares.first() && route.last() == squares.last()
}

/// The legal moves whose notation starts with `prefix`, in the list's order. `-` and `x`
/// stand for each other, so `28-` (or `28 `, typed with a space) still lists `28x19`.
pub fn matching<'a>(prefix: &str, legal: &'a [LegalMove]) -> Vec<&'a LegalMove> {
    let prefix = prefix.trim().replace(['x', 'X'], "-");
    legal
        .iter()
        .filter(|m| m.notation.replace('x', "-").starts_with(&prefix))
        .collect()
}

/// Tab completion: the longest common prefix of the matching notations, or, when the input is
/// already that prefix, the next matching notation after the current text (cycling).
pub fn complete(input: &str, legal: &[LegalMove]) -> Option<String> {
    let input = input.trim();
    let mut names: Vec<&str> = legal.iter().map(|m| m.notation.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    if let Some(position) = names.iter().position(|name| *name == input) {
        // A complete move: cycle to the next one sharing the prefix before the last separator.
        let stem = input.rfind(['-', 'x']).map_or("", |at| &input[..=at]);
        let family: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| n.starts_with(stem))
            .collect();
        let at = family.iter().position(|n| *n == names[position])?;
        return Some(family[(at + 1) % family.len()].to_owned());
    }
    let matches: Vec<&str> = names.into_iter().filter(|n| n.starts_with(input)).collect();
    let first = matches.first()?;
    let common = matches.iter().fold(first.len(), |len, name| {
        first
            .bytes()
            .zip(name.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count()
    });
    // Notations are ASCII; should one not be, stop at a character boundary rather than panic.
    let common = (0..=common)
        .rev()
        .find(|&at| first.is_char_boundary(at))
        .unwrap_or(0);
    Some(first[..common].to_owned())
}

#[cfg(test)]
pub(crate) fn legal(notations: &[&str]) -> Vec<LegalMove> {
    notations
        .iter()
        .map(|n| LegalMove {
            notation: (*n).to_owned(),
            route: parse_squares(n).unwrap(),
            captures: Vec::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_and_capture_resolve_to_routes() {
        let moves = legal(&["32-28", "33-28", "28x19"]);
        assert_eq!(resolve("32-28", &moves), Ok(Resolution::One(vec![32, 28])));
        assert_eq!(
            resolve(" 28x19 ", &moves),
            Ok(Resolution::One(vec![28, 19]))
        );
        assert_eq!(resolve("28-19", &moves), Ok(Resolution::One(vec![28, 19])));
    }

    #[test]
    fn shared_ends_are_ambiguous_until_the_full_path() {
        let moves = legal(&["9x18x16", "9x20x16", "9x13"]);
        assert_eq!(
            resolve("9x16", &moves),
            Ok(Resolution::Ambiguous(vec![0, 1]))
        );
        assert_eq!(
            resolve("9x20x16", &moves),
            Ok(Resolution::One(vec![9, 20, 16]))
        );
        assert_eq!(between(&moves, 9, 13), vec![2]);
    }

    #[test]
    fn unlisted_moves_go_to_the_server_and_nonsense_is_refused() {
        let moves = legal(&["32-28"]);
        assert_eq!(
            resolve("31-27", &moves),
            Ok(Resolution::Unlisted(vec![31, 27]))
        );
        assert!(resolve("hello", &moves).is_err());
        assert!(resolve("51-46", &moves).is_err());
        assert!(resolve("32", &moves).is_err());
    }

    #[test]
    fn tab_completes_the_common_prefix_then_cycles() {
        let moves = legal(&["32-28", "32-27", "31-26", "33-29"]);
        assert_eq!(complete("3", &moves).as_deref(), Some("3"));
        assert_eq!(complete("32", &moves).as_deref(), Some("32-2"));
        assert_eq!(complete("31", &moves).as_deref(), Some("31-26"));
        assert_eq!(complete("32-27", &moves).as_deref(), Some("32-28"));
        assert_eq!(complete("32-28", &moves).as_deref(), Some("32-27"));
        assert_eq!(complete("44", &moves), None);
        assert_eq!(matching("32", &moves).len(), 2);
        let captures = legal(&["28x19", "28x17"]);
        assert_eq!(matching("28-", &captures).len(), 2);
    }
}
