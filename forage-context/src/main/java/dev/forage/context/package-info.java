/**
 * Task decorators that carry a thread's context from the thread that submits a task to a Forage pool to the
 * worker that runs it: {@link dev.forage.context.MdcTaskDecorator} (SLF4J's MDC),
 * {@link dev.forage.context.OpenTelemetryTaskDecorator} (OpenTelemetry's {@code Context}), and
 * {@link dev.forage.context.TaskDecorators#compose} to use several at once.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .taskDecorator(TaskDecorators.compose(new MdcTaskDecorator(), new OpenTelemetryTaskDecorator()))
 *         .build();
 * }</pre>
 *
 * <p>SLF4J and OpenTelemetry are optional dependencies of this artifact: name the ones you use in your build. A
 * decorator needs only its own library on the class path; {@code TaskDecorators} needs neither.
 *
 * <p>What a pool decorates (every task that leaves the submitting thread, not the join halves or scope spawns of
 * a running job), and how decoration meets Kotlin coroutines: {@code docs/integrations.md}.
 */
package dev.forage.context;
