package dev.forage.samples.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The service's CPU work: SHA-256 applied {@code rounds} times (key stretching, as password hashing does). */
public final class Hashing {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Hashing() {
    }

    /** SHA-256 of {@code text}'s UTF-8 bytes, then of each digest in turn, {@code rounds} times in all. */
    public static byte[] sha256Rounds(String text, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, was " + rounds);
        }
        MessageDigest sha256 = newSha256();
        byte[] digest = sha256.digest(text.getBytes(StandardCharsets.UTF_8));
        for (int i = 1; i < rounds; i++) {
            digest = sha256.digest(digest);
        }
        return digest;
    }

    /** SHA-256 over the given digests in order: how the fan-out endpoint joins its parts. */
    public static byte[] combine(java.util.List<byte[]> digests) {
        MessageDigest sha256 = newSha256();
        for (byte[] digest : digests) {
            sha256.update(digest);
        }
        return sha256.digest();
    }

    /** Lower-case hexadecimal. */
    public static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
