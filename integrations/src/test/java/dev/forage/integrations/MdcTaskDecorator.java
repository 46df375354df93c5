package dev.forage.integrations;

import dev.forage.ForageTaskDecorator;
import java.util.Map;
import org.slf4j.MDC;

// snippet: docs/integrations.md, MDC decorator
/**
 * Carries SLF4J's MDC from the submitting thread to the worker: captured when the task is submitted, set around
 * its run, and the worker's own MDC put back afterwards (not merely cleared: on a single-threaded pool the task
 * may run on the submitting thread itself).
 */
final class MdcTaskDecorator implements ForageTaskDecorator {
    @Override
    public Runnable decorate(Runnable task) {
        Map<String, String> captured = MDC.getCopyOfContextMap();   // on the submitting thread
        return () -> {                                              // on the worker
            Map<String, String> previous = MDC.getCopyOfContextMap();
            set(captured);
            try {
                task.run();
            } finally {
                set(previous);
            }
        };
    }

    private static void set(Map<String, String> context) {
        if (context == null) {
            MDC.clear();
        } else {
            MDC.setContextMap(context);
        }
    }
}
// end snippet
