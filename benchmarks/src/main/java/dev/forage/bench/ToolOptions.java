package dev.forage.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of the runner's side tools ({@link SchedTrace}, {@link ByPlacement}): {@code --name value}
 * pairs from a fixed list, each refused with the list when unknown or without its value.
 */
final class ToolOptions {
    private ToolOptions() {
    }

    /** The pairs of {@code args}, by name without the dashes. */
    static Map<String, String> parse(String[] args, List<String> known) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || !known.contains(a.substring(2)) || i + 1 == args.length) {
                throw new IllegalArgumentException("unknown or incomplete option " + a + "; allowed, each with a "
                        + "value: --" + String.join(", --", known));
            }
            opts.put(a.substring(2), args[++i]);
        }
        return opts;
    }

    /** Option {@code name} as a positive whole number, {@code dflt} when absent. */
    static int positive(Map<String, String> opts, String name, int dflt) {
        String v = opts.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("--" + name + " must be a positive whole number, was " + v);
    }
}
