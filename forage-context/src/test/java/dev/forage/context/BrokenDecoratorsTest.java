package dev.forage.context;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForageTaskDecorator;
import dev.forage.context.ContextCheck.Carrier;
import dev.forage.context.ContextCheck.Entered;
import dev.forage.testing.Watchdog;
import io.opentelemetry.context.Context;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The checks of {@link ContextCheck} can fail: each catches the decorator broken the way it guards against, for
 * both contexts. Without this, a check that passes everything would pass the real decorators too.
 */
@Watchdog.Budget(seconds = 60)
class BrokenDecoratorsTest {
    private static final List<Carrier> CARRIERS = List.of(Carriers.mdc(), Carriers.openTelemetry());

    @AfterEach
    void nothingLeftOnTheTestThread() {
        // A broken decorator may leave a context behind on the thread that drove a single-threaded pool.
        CARRIERS.forEach(Carrier::clear);
    }

    /** Sets the captured context around the run, then clears: the common mistake. */
    private static ForageTaskDecorator clearing(Carrier carrier) {
        return task -> {
            String captured = carrier.current();
            return () -> {
                carrier.enter(captured);
                try {
                    task.run();
                } finally {
                    carrier.clear();
                }
            };
        };
    }

    /** Puts the thread's context back, but not in a finally: a task that throws leaves its context behind. */
    private static ForageTaskDecorator restoringOnlyOnSuccess(Carrier carrier) {
        return task -> {
            String captured = carrier.current();
            return () -> {
                Entered entered = carrier.enter(captured);
                task.run();
                entered.close();
            };
        };
    }

    @Test
    void aDecoratorThatClearsInsteadOfRestoringFails() {
        for (Carrier carrier : CARRIERS) {
            ContextCheck check = new ContextCheck(carrier, clearing(carrier));
            expectProblem(carrier, check.capturedAtSubmissionAndTheDriversOwnRestored(), "not its own 'driver'");
            expectProblem(carrier, check.installFromOutsideKeepsTheCallersContext(), "after install, not its own");
        }
    }

    @Test
    void aDecoratorThatRestoresOutsideAFinallyFails() throws Exception {
        for (Carrier carrier : CARRIERS) {
            ContextCheck check = new ContextCheck(carrier, restoringOnlyOnSuccess(carrier));
            expectProblem(carrier, check.aThrowingTaskReachesTheHandlerInTheDriversContext(), "[boom in submitter]");
            expectProblem(carrier, check.aThrowingTaskLeavesTheWorkerWithoutTheSubmittersContext(),
                    "boom in submitter");
            carrier.clear();
        }
    }

    @Test
    void aPoolWithoutADecoratorFails() throws Exception {
        for (Carrier carrier : CARRIERS) {
            ContextCheck check = new ContextCheck(carrier, task -> task);
            expectProblem(carrier, check.capturedAtSubmissionAndTheDriversOwnRestored(), "the task saw driver");
            expectProblem(carrier, check.everyFaceCarriesTheSubmittersContext(), "ExecutorService.submit saw null");
        }
    }

    /** OpenTelemetry's own Context.wrap: after a task that left a scope open, the task's context stays. */
    @Test
    void contextWrapLeavesTheContextOfAScopeTheTaskLeftOpen() {
        Carrier carrier = Carriers.openTelemetry();
        ContextCheck check = new ContextCheck(carrier, task -> Context.current().wrap(task));
        expectProblem(carrier, check.aTaskThatLeavesAContextEnteredLeavesNoTrace(), "has left by the task");
    }

    private static void expectProblem(Carrier carrier, String problem, String expected) {
        assertNotNull(problem, carrier + ": the check passed a broken decorator");
        assertTrue(problem.contains(expected), carrier + ": " + problem);
    }
}
