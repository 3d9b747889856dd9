//! Claim legality: which melds a seat may form with the offer.

use super::cards::{Hand, Kind, CANNON, CHARIOT, COLOURS, ELEPHANT, GENERAL, HORSE, PIECE_NAMES};
use super::melds::{min_rac, offer_melds, MeldKind};

/// A claim of the offer: the meld it makes and the cards it takes from the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub meld: MeldKind,
    pub used: Vec<Kind>,
}

/// Claim priority class: win 3 > quad (khui) 2 > triple 1 > the entitled seat's other claims 0.
pub const fn priority(meld: Option<MeldKind>) -> u8 {
    match meld {
        None => 3,
        Some(MeldKind::ClaimedQuad) => 2,
        Some(MeldKind::ClaimedTriple) => 1,
        Some(_) => 0,
    }
}

/// The bài bụng rule (seed 003) a table plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BungRule {
    /// The seed's rule (default): a hand holding Xe, Pháo and Mã of one colour plus a second
    /// copy of one of them may not claim a discarded copy of the doubled piece into any meld,
    /// and may claim a copy of either single piece only to make a pair with it.
    Seed,
    /// A claim must not raise the hand's fewest rác, and a complete Xe–Pháo–Mã is never broken
    /// (the engine's rule before the seed reading).
    MinRac,
    /// No bài bụng rule.
    Off,
}

impl BungRule {
    pub fn from_name(name: &str) -> Option<BungRule> {
        match name {
            "seed" => Some(BungRule::Seed),
            "min_rac" => Some(BungRule::MinRac),
            "off" => Some(BungRule::Off),
            _ => None,
        }
    }
}

/// The piece a bài bụng of `colour` holds twice: the hand has Xe, Pháo and Mã of that colour,
/// exactly one of them twice (Xe-Xe-Pháo-Mã, Xe-Pháo-Pháo-Mã, Xe-Pháo-Mã-Mã).
fn bung_doubled(hidden: &Hand, colour: u8) -> Option<u8> {
    let counts = [CHARIOT, CANNON, HORSE].map(|p| hidden.count(Kind::new(p, colour)));
    let shape = counts.iter().all(|&n| n >= 1) && counts.iter().sum::<u8>() == 4;
    shape.then(|| CHARIOT + counts.iter().position(|&n| n == 2).unwrap_or(0) as u8)
}

/// The seed's bài bụng rule for claiming `offer` into `meld`.
fn check_seed_bung(
    hidden: &Hand,
    offer: Kind,
    meld: MeldKind,
) -> Result<(), (&'static str, String)> {
    let piece = offer.piece();
    if !(CHARIOT..=HORSE).contains(&piece) {
        return Ok(());
    }
    let Some(doubled) = bung_doubled(hidden, offer.colour()) else {
        return Ok(());
    };
    let name = PIECE_NAMES[piece as usize];
    if piece == doubled {
        return Err((
            "bai_bung",
            format!("holding Xe, Pháo and Mã with a second {name} (bài bụng), a {name} may not be claimed"),
        ));
    }
    if meld != MeldKind::Pair {
        return Err((
            "bai_bung",
            format!("holding a bài bụng, a {name} may only be claimed to make a pair"),
        ));
    }
    Ok(())
}

/// How many complete Tướng–Sĩ–Tượng / Xe–Pháo–Mã the hand holds per (set, colour).
fn sets(h: &Hand) -> [[u8; COLOURS]; 2] {
    let mut out = [[0; COLOURS]; 2];
    for c in 0..COLOURS as u8 {
        out[0][c as usize] = (GENERAL..=ELEPHANT)
            .map(|p| h.count(Kind::new(p, c)))
            .min()
            .unwrap_or(0);
        out[1][c as usize] = (CHARIOT..=HORSE)
            .map(|p| h.count(Kind::new(p, c)))
            .min()
            .unwrap_or(0);
    }
    out
}

/// Why a claim is not allowed, or `None` when it is (win claims are checked elsewhere).
///
/// - only the entitled seat may claim anything but a triple or a quad (khui);
/// - a khạp is never split (its cards go only into the khui);
/// - a complete Tướng–Sĩ–Tượng is never broken, except to re-form the same set;
/// - bài bụng per `bung` (see [`BungRule`]; under `MinRac` a complete Xe–Pháo–Mã is never
///   broken either);
/// - the khui (mandatory) is exempt from the rules above: it keeps the khạp whole;
/// - a non-Tướng card must remain to discard.
pub fn check_claim(
    hidden: &Hand,
    offer: Kind,
    claim: &Claim,
    entitled: bool,
    bung: BungRule,
) -> Result<(), (&'static str, String)> {
    let out_of_turn_ok = matches!(claim.meld, MeldKind::ClaimedTriple | MeldKind::ClaimedQuad);
    if !entitled && !out_of_turn_ok {
        return Err((
            "not_entitled",
            "out of turn a seat may only claim a triple, a quad (khui) or a win".into(),
        ));
    }
    let used = Hand::from_kinds(&claim.used);
    if !hidden.contains(&used) {
        return Err((
            "cards_not_in_hand",
            "the claim uses cards not in the hand".into(),
        ));
    }
    for &k in &claim.used {
        if hidden.count(k) >= 3 && claim.meld != MeldKind::ClaimedQuad {
            return Err(("splits_khap", format!("the khạp of {k} may not be split")));
        }
    }
    let rest = hidden.minus(&used);
    if claim.meld == MeldKind::ClaimedQuad {
        // The khui keeps the khạp whole; it is mandatory, so no other constraint applies.
        return discardable(&rest);
    }
    match bung {
        BungRule::Seed => check_seed_bung(hidden, offer, claim.meld)?,
        BungRule::MinRac if min_rac(&rest) > min_rac(hidden) => {
            return Err((
                "bai_bung",
                "the claim would leave more rác in the hand (bài bụng)".into(),
            ));
        }
        _ => {}
    }
    let (before, after) = (sets(hidden), sets(&rest));
    let guarded: &[MeldKind] = if bung == BungRule::MinRac {
        &[MeldKind::GeneralSet, MeldKind::ChariotSet]
    } else {
        &[MeldKind::GeneralSet]
    };
    for (s, &set_kind) in guarded.iter().enumerate() {
        for c in 0..COLOURS {
            let reforms = claim.meld == set_kind && offer.colour() as usize == c;
            if after[s][c] < before[s][c] && !reforms {
                return Err((
                    "breaks_set",
                    format!("a complete {} may not be broken", set_kind.name()),
                ));
            }
        }
    }
    discardable(&rest)
}

fn discardable(rest: &Hand) -> Result<(), (&'static str, String)> {
    // Kinds 0..4 are the four Tướng, which are never discarded.
    if rest.0[4..].iter().all(|&c| c == 0) {
        return Err((
            "nothing_to_discard",
            "the claim would leave no card but Tướng to discard".into(),
        ));
    }
    Ok(())
}

/// Every legal (non-win) claim of `offer` for a seat holding `hidden`. Khui is mandatory, so a
/// seat that can khui may make no other claim; the same for the triple unless `triple_optional`.
pub fn legal_claims(
    hidden: &Hand,
    offer: Kind,
    entitled: bool,
    triple_optional: bool,
    bung: BungRule,
) -> Vec<Claim> {
    let mut out: Vec<Claim> = offer_melds(hidden, offer)
        .into_iter()
        .map(|(meld, used)| Claim { meld, used })
        .filter(|c| check_claim(hidden, offer, c, entitled, bung).is_ok())
        .collect();
    if out.iter().any(|c| c.meld == MeldKind::ClaimedQuad) {
        out.retain(|c| c.meld == MeldKind::ClaimedQuad);
    } else if !triple_optional && out.iter().any(|c| c.meld == MeldKind::ClaimedTriple) {
        out.retain(|c| c.meld == MeldKind::ClaimedTriple);
    }
    out
}

/// The claims a seat may answer an offer of `offer` with: [`legal_claims`], and under
/// `forbidden_triple="no_claim"` (`forbidden_no_claim`, the triple mandatory) none at all when
/// the seat holds a pair of `offer` whose triple is forbidden (the pair bars every claim of the
/// card). The one place of that rule: the flow and the Python API both ask it.
pub fn offered_claims(
    hidden: &Hand,
    offer: Kind,
    entitled: bool,
    triple_optional: bool,
    forbidden_no_claim: bool,
    bung: BungRule,
) -> Vec<Claim> {
    let mut claims = legal_claims(hidden, offer, entitled, triple_optional, bung);
    if forbidden_no_claim
        && !triple_optional
        && hidden.count(offer) == 2
        && !claims.iter().any(|c| c.meld == MeldKind::ClaimedTriple)
    {
        claims.clear();
    }
    claims
}

/// The kinds whose discard is a rác: removing one copy lowers the fewest rác.
pub fn rac_kinds(hidden: &Hand) -> Vec<Kind> {
    let base = min_rac(hidden);
    (0..28u8)
        .filter_map(Kind::from_index)
        .filter(|&k| {
            let mut rest = *hidden;
            rest.take(k) && min_rac(&rest) < base
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::cards::{parse_card, parse_hand};
    use super::*;

    fn claims_with(
        hand: &str,
        offer: &str,
        entitled: bool,
        bung: BungRule,
    ) -> Vec<(MeldKind, String)> {
        let h = parse_hand(hand).unwrap();
        legal_claims(&h, parse_card(offer).unwrap(), entitled, false, bung)
            .into_iter()
            .map(|c| (c.meld, Hand::from_kinds(&c.used).to_string()))
            .collect()
    }

    fn claims(hand: &str, offer: &str, entitled: bool) -> Vec<(MeldKind, String)> {
        claims_with(hand, offer, entitled, BungRule::Seed)
    }

    #[test]
    fn bai_bung_seed_example() {
        // Xe-Pháo-Mã-Mã: a Mã may not be eaten; a Xe or a Pháo may, to make a pair.
        assert!(claims("RR CR HR HR PY HY", "HR", true).is_empty());
        assert!(claims("RR CR HR HR PY HY", "HR", false).is_empty());
        assert_eq!(
            claims("RR CR HR HR PY HY", "RR", true),
            vec![(MeldKind::Pair, "RR".into())]
        );
        assert_eq!(
            claims("RR CR HR HR PY HY", "CR", true),
            vec![(MeldKind::Pair, "CR".into())]
        );
        // another colour's pieces are not bound
        assert_eq!(claims("RR CR HR HR HY", "HY", true).len(), 1);
    }

    #[test]
    fn bai_bung_min_rac_and_off() {
        // Xe Xe Pháo Mã: the third Xe not with the Xe pair; with one Xe or with Pháo + Mã.
        let c = claims_with("RR RR CR HR PY", "RR", true, BungRule::MinRac);
        assert!(c.contains(&(MeldKind::Pair, "RR".into())));
        assert!(c.contains(&(MeldKind::ChariotSet, "CR HR".into())));
        assert!(!c.iter().any(|(m, _)| *m == MeldKind::ClaimedTriple));
        assert!(claims_with("RR CR HR PY", "RR", true, BungRule::MinRac).is_empty());
        let c = claims_with("RR RR CR HR PY", "RR", true, BungRule::Off);
        assert!(c.iter().any(|(m, _)| *m == MeldKind::ClaimedTriple));
        // without the min_rac rule a complete Xe–Pháo–Mã may be broken
        for bung in [BungRule::Off, BungRule::Seed] {
            let c = claims_with("RR CR HR PY", "RR", true, bung);
            assert!(c.contains(&(MeldKind::Pair, "RR".into())), "{bung:?}");
        }
    }

    #[test]
    fn khap_never_split_and_khui_out_of_turn() {
        let c = claims("HG HG HG PY", "HG", false);
        assert_eq!(c, vec![(MeldKind::ClaimedQuad, "HG HG HG".into())]);
        let c = claims("HG HG HG CG RG PY", "HG", true);
        assert_eq!(c, vec![(MeldKind::ClaimedQuad, "HG HG HG".into())]);
    }

    #[test]
    fn complete_set_not_broken_and_chot_exception() {
        let c = claims("KR AR ER PY", "AR", true);
        assert_eq!(c, vec![(MeldKind::GeneralSet, "KR ER".into())]);
        let c = claims_with("KR AR ER PY", "AR", true, BungRule::MinRac);
        assert!(c.is_empty(), "{c:?}");
        let c = claims("PY PR PG AY", "PW", true);
        assert!(c.contains(&(MeldKind::FourSoldiers, "PY PR PG".into())));
    }

    #[test]
    fn mandatory_triple_unless_optional() {
        let h = parse_hand("KY KY AY").unwrap();
        let offer = parse_card("KY").unwrap();
        assert_eq!(
            legal_claims(&h, offer, true, false, BungRule::Seed).len(),
            1
        );
        assert_eq!(legal_claims(&h, offer, true, true, BungRule::Seed).len(), 3);
    }

    #[test]
    fn out_of_turn_only_triple() {
        let c = claims("CY CY CR HR RR", "CY", false);
        assert_eq!(c, vec![(MeldKind::ClaimedTriple, "CY CY".into())]);
        assert!(claims("AY EY PY", "KY", false).is_empty());
    }
}
