//! The framing every Mậu Binh table file shares: a 4-byte magic (three letters of the family
//! and a version digit), a little-endian u32 length and that many bytes of UTF-8 JSON, the
//! header that says how the file was made; the body follows.

use crate::error::{Error, Result};

/// A file's magic, its header's length and the header.
pub(crate) fn frame(magic: &[u8; 4], header: &str) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out
}

/// The header and the body of a file framed with `magic`; None when it is not one (another
/// magic, or it ends inside its header, or the header is not UTF-8).
pub(crate) fn unframe<'a>(bytes: &'a [u8], magic: &[u8; 4]) -> Option<(&'a str, &'a [u8])> {
    if bytes.get(..4)? != magic {
        return None;
    }
    let len = u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?) as usize;
    let header = std::str::from_utf8(bytes.get(8..8usize.checked_add(len)?)?).ok()?;
    Some((header, &bytes[8 + len..]))
}

/// Refuses a file of `family` (its magic's three letters) whose version digit is above
/// `newest`, with an error naming its format and `remedy` (what the reader can do).
pub(crate) fn refuse_newer(
    bytes: &[u8],
    family: &[u8; 3],
    newest: u8,
    what: &str,
    remedy: &str,
) -> Result<()> {
    match bytes.get(..4) {
        Some([a, b, c, v]) if [*a, *b, *c] == *family && v.is_ascii_digit() && *v > newest => {
            let family = std::str::from_utf8(family).expect("ASCII");
            Err(Error::Rules(format!(
                "{what} of format {family}{}: {remedy}",
                *v as char
            )))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_unframes_to_its_header_and_body_and_nothing_else_does() {
        let mut file = frame(b"MBX1", "{\"deals\": 3}");
        file.extend_from_slice(&[7, 8]);
        assert_eq!(
            unframe(&file, b"MBX1"),
            Some(("{\"deals\": 3}", &[7u8, 8][..]))
        );
        assert_eq!(unframe(&file, b"MBX2"), None);
        for cut in 0..file.len() - 2 {
            assert_eq!(unframe(&file[..cut], b"MBX1"), None, "{cut}");
        }
        let mut bad = frame(b"MBX1", "ab");
        bad[8] = 0xff;
        assert_eq!(unframe(&bad, b"MBX1"), None);
        let mut huge = frame(b"MBX1", "");
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(unframe(&huge, b"MBX1"), None);
    }

    #[test]
    fn only_a_newer_version_of_the_family_is_refused() {
        let refuse = |b: &[u8]| refuse_newer(b, b"MBX", b'2', "tables", "upgrade").is_err();
        assert!(refuse(b"MBX3...") && refuse(b"MBX9"));
        assert!(!refuse(b"MBX2") && !refuse(b"MBX1") && !refuse(b"MBY9") && !refuse(b"MBXa"));
        assert!(!refuse(b"MB"));
        let e = refuse_newer(b"MBX3", b"MBX", b'2', "tables", "upgrade").unwrap_err();
        assert!(
            e.to_string().contains("tables of format MBX3: upgrade"),
            "{e}"
        );
    }
}
