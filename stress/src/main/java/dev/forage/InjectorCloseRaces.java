package dev.forage;

/** The arbiter's count for {@link InjectorCloseVsPush} and {@link InjectorCloseVsBlockInstall}. */
final class InjectorCloseRaces {
    private InjectorCloseRaces() {
    }

    /**
     * Single-threaded: polls every queued job and returns how many were {@link Jobs#A}, the raced one; -1 if
     * anything else was queued (the setup's jobs are polled before the race).
     */
    static int pollAll(Injector injector) {
        int found = 0;
        Runnable job;
        while ((job = injector.poll()) != null) {
            if (job != Jobs.A) {
                return -1;
            }
            found++;
        }
        return found;
    }
}
