package guide;

import dev.forage.ForagePool;
import dev.forage.SleepProtocol;

/** The block of docs/sleep-strategies.md. */
public final class SleepStrategiesPage {
    private SleepStrategiesPage() {
    }

    public static ForagePool emper() {
        ForagePool pool = ForagePool.builder()
                .threads(8)
                .sleepProtocol(SleepProtocol.EMPER)    // default: SleepProtocol.JEC
                .build();
        return pool;
    }
}
