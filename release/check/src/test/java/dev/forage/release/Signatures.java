package dev.forage.release;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRingCollection;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/** Verifies detached, ASCII-armoured OpenPGP signatures (.asc) against one public key ring file. */
final class Signatures {
    private final PGPPublicKeyRingCollection keys;

    Signatures(Path armoredPublicKeys) {
        try (InputStream in = PGPUtil.getDecoderStream(Files.newInputStream(armoredPublicKeys))) {
            keys = new PGPPublicKeyRingCollection(in, new BcKeyFingerprintCalculator());
        } catch (IOException | PGPException e) {
            throw new IllegalArgumentException("cannot read the public key " + armoredPublicKeys + ": " + e, e);
        }
        if (keys.size() == 0) throw new IllegalArgumentException("no public key in " + armoredPublicKeys);
    }

    /** Null if {@code asc} is a valid signature of {@code data} by one of the keys, else why not. */
    String problem(byte[] data, byte[] asc) {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(asc))) {
            Object first = new BcPGPObjectFactory(in).nextObject();
            if (!(first instanceof PGPSignatureList) || ((PGPSignatureList) first).isEmpty()) {
                return "not a detached signature: " + (first == null ? "empty" : first.getClass().getSimpleName());
            }
            PGPSignature signature = ((PGPSignatureList) first).get(0);
            PGPPublicKey key = keys.getPublicKey(signature.getKeyID());
            if (key == null) return "signed by key " + Long.toHexString(signature.getKeyID()) + ", not the release key";
            signature.init(new BcPGPContentVerifierBuilderProvider(), key);
            signature.update(data);
            return signature.verify() ? null : "signature does not match the file";
        } catch (IOException | PGPException e) {
            return "unreadable signature: " + e;
        }
    }
}
