package dev.forage.api;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes a Java source file reaches through member chains, which a check of the class names it writes cannot
 * see: {@code registry.monitor.workerBusy()} calls a {@code Monitor} without naming one. Every Java file is read
 * for its classes' fields, methods (return type and parameter count), enum constants and supertypes; then each
 * file is read again with its parameters and locals in scope. A chain starts at a local or parameter, a field (of
 * the class, of an enclosing class, or inherited from a supertype among the sources), a call of such a method,
 * {@code this}, {@code super}, a {@code new} expression or a class name, and each link ({@code .field},
 * {@code .method(...)}, {@code [index]}) lands in its declared type. Every start and link that lands in a class of
 * the sources (or an array of one) is a use of that class's file. Comments and string literals are read as
 * {@link ArchitectureMapTest#codeOnly} leaves them: out.
 *
 * <p>It reads tokens, it does not compile: it is right for this codebase's style, and these are its limits.
 * <ul>
 *   <li>A chain stops at a type it does not know: a JDK or library type, a type parameter, an element of a generic
 *       container ({@code list.get(0).x}), an untyped lambda parameter, a cast or a parenthesized expression
 *       ({@code ((Foo) x).y}). It does not start at a member that an anonymous class inherits, nor at a name
 *       brought in by a static import.</li>
 *   <li>A call resolves by name and argument count; when the methods of that name and count return different
 *       types, the chain stops there. A generic call's arguments may be miscounted; then every method of the name
 *       is a candidate.</li>
 *   <li>A scope is a pair of braces, or a parenthesized header ({@code for}, {@code catch}, parameters) up to the
 *       next brace or semicolon; only the first variable of {@code Foo a, b;} is declared, so a later one can
 *       resolve to a field of the same name.</li>
 *   <li>Kotlin files are not followed: Kotlin infers the types of most locals, which a token reading cannot. The
 *       Kotlin sources are a face in their own package, so any chain of theirs lands in a public class, and so only
 *       in the public API's layers; their uses are checked by the names they write.</li>
 * </ul>
 */
final class MemberChains {
    private static final Pattern TOKEN =
            Pattern.compile("'(?:\\\\.|[^'\\\\])+'|[A-Za-z_$][\\w$]*|\\d[\\w.]*|\\.\\.\\.|->|::|\\S");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import ([\\w.]+(?:\\.\\*)?)");
    private static final Set<String> PRIMITIVES =
            Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double", "void");
    private static final Set<String> MODIFIERS = Set.of("public", "protected", "private", "static", "final",
            "abstract", "volatile", "transient", "synchronized", "native", "strictfp", "default");
    private static final Set<String> KEYWORDS = Set.of("assert", "break", "case", "catch", "class", "const",
            "continue", "do", "else", "enum", "extends", "finally", "for", "goto", "if", "implements", "import",
            "instanceof", "interface", "new", "package", "return", "super", "switch", "this", "throw", "throws",
            "try", "while", "true", "false", "null");
    /** What may follow a declared name: an initializer, the end of a statement or parameter, a for-each, a method. */
    private static final Set<String> AFTER_NAME = Set.of("=", ";", ",", ")", ":", "(");

    /** One Java file: its name without extension, its package, its imports and its code as tokens. */
    private static final class Source {
        final String file;
        final String pkg;
        final Set<String> imports = new HashSet<>();
        final List<String> tokens = new ArrayList<>();

        Source(String file, String text) {
            this.file = file;
            Matcher p = PACKAGE.matcher(text);
            this.pkg = p.find() ? p.group(1) : "";
            Matcher imp = IMPORT.matcher(text);
            while (imp.find()) imports.add(imp.group(1));
            Matcher token = TOKEN.matcher(ArchitectureMapTest.codeOnly(text));
            while (token.find()) tokens.add(token.group());
        }
    }

    /** A type as a declaration writes it, with the file and class it is written in, where its name resolves. */
    private record Written(String name, int dims, Source source, String context) {
    }

    /** A class of the sources (key {@code Outer.Inner} for a nested one), or an array of it when dims > 0. */
    private record Landing(String type, int dims) {
    }

    private record Method(Written returns, int params, boolean varargs) {
    }

    /** A class, interface or enum of the sources and its members. */
    private static final class TypeInfo {
        final Source source;
        final String outer;
        final List<String> supers = new ArrayList<>();
        final Map<String, Written> fields = new HashMap<>();
        final Map<String, List<Method>> methods = new HashMap<>();

        TypeInfo(Source source, String outer) {
            this.source = source;
            this.outer = outer;
        }
    }

    /** A declaration found at a token: its type, the index of its name, whether it is a varargs parameter. */
    private record Declaration(String type, int dims, int name, boolean varargs) {
    }

    /** An open class body: its key and the brace depth inside it. */
    private static final class Body {
        final String type;
        final int depth;
        boolean enumConstants;

        Body(String type, int depth, boolean enumConstants) {
            this.type = type;
            this.depth = depth;
            this.enumConstants = enumConstants;
        }
    }

    private final Map<String, TypeInfo> types = new HashMap<>();
    private final Map<String, Map<String, String>> reached = new TreeMap<>();

    private MemberChains() {
    }

    /**
     * Reads {@code files}: each key a file's path or name ending in {@code .java} or {@code .kt} (Kotlin files are
     * taken and not followed), each value its text.
     */
    static MemberChains of(Map<String, String> files) {
        MemberChains chains = new MemberChains();
        List<Source> sources = new ArrayList<>();
        files.forEach((path, text) -> {
            if (!path.endsWith(".java")) return;
            String name = path.substring(path.lastIndexOf('/') + 1);
            sources.add(new Source(name.substring(0, name.length() - ".java".length()), text));
        });
        for (Source source : sources) chains.walk(source, false);
        for (Source source : sources) chains.walk(source, true);
        return chains;
    }

    /**
     * The files (names without extension) whose classes {@code file}'s chains land in, its own included, each with
     * the first chain that lands there, as the code writes it with arguments left out.
     */
    Map<String, String> reachedBy(String file) {
        return reached.getOrDefault(file, Map.of());
    }

    /**
     * One reading of {@code source}: the first ({@code resolve} false) records its classes and their members, the
     * second declares its parameters and locals as it goes and follows every chain.
     */
    private void walk(Source source, boolean resolve) {
        List<String> t = source.tokens;
        Deque<Body> bodies = new ArrayDeque<>();
        Deque<Map<String, Written>> scopes = new ArrayDeque<>();
        Deque<Integer> outerParens = new ArrayDeque<>();
        Map<String, Written> header = new HashMap<>(); // parameters and for/catch/try variables, for the next block
        String pendingType = null;
        boolean pendingEnum = false;
        int depth = 0;
        int parens = 0;
        for (int i = 0; i < t.size(); i++) {
            String tok = t.get(i);
            String prev = i > 0 ? t.get(i - 1) : "";
            Body body = bodies.peek();
            switch (tok) {
                case "{":
                    depth++;
                    outerParens.push(parens);
                    parens = 0;
                    scopes.push(new HashMap<>(header));
                    header.clear();
                    if (pendingType != null) {
                        bodies.push(new Body(pendingType, depth, pendingEnum));
                        pendingType = null;
                    }
                    continue;
                case "}":
                    if (body != null && body.depth == depth) bodies.pop();
                    if (!scopes.isEmpty()) scopes.pop();
                    depth--;
                    parens = outerParens.isEmpty() ? 0 : outerParens.pop();
                    continue;
                case "(":
                    parens++;
                    continue;
                case ")":
                    parens--;
                    continue;
                case ";":
                    if (parens == 0) {
                        header.clear();
                        if (body != null && body.depth == depth) body.enumConstants = false;
                    }
                    continue;
                case "->":
                    lambdaParameters(t, i, header);
                    continue;
                default:
                    break;
            }
            if (!isIdentifier(tok) || prev.equals(".") || prev.equals("::")) continue;
            if ((tok.equals("class") || tok.equals("interface") || tok.equals("enum")) && i + 1 < t.size()) {
                pendingType = body == null ? t.get(i + 1) : body.type + "." + t.get(i + 1);
                pendingEnum = tok.equals("enum");
                int open = typeHeader(t, i + 2, pendingType, source, body == null ? null : body.type, resolve);
                i = open - 1;
                continue;
            }
            if (body == null) continue;
            boolean inBody = depth == body.depth && parens == 0;
            if (!resolve && inBody && body.enumConstants && (prev.equals("{") || prev.equals(","))) {
                types.get(body.type).fields.put(tok, new Written(simple(body.type), 0, source, body.type));
                continue;
            }
            Declaration d = declarationAt(t, i);
            if (d != null) {
                boolean method = t.get(d.name() + 1).equals("(");
                Written type = new Written(d.type(), d.dims(), source, body.type);
                if (!resolve && inBody && method) {
                    int[] count = parameterCount(t, d.name() + 1);
                    types.get(body.type).methods.computeIfAbsent(t.get(d.name()), k -> new ArrayList<>())
                            .add(new Method(type, count[0], count[1] == 1));
                } else if (!resolve && inBody) {
                    types.get(body.type).fields.put(t.get(d.name()), type);
                } else if (resolve && !method && parens > 0) {
                    header.put(t.get(d.name()), type);
                } else if (resolve && !method && depth > body.depth) {
                    scopes.peek().put(t.get(d.name()), type);
                }
            }
            if (resolve) follow(t, i, source, bodies, scopes, header);
        }
    }

    /**
     * The class header from {@code from} (after the name) to its opening brace, whose index it returns; in the
     * first reading, records the class and its supertypes as written.
     */
    private int typeHeader(List<String> t, int from, String key, Source source, String outer, boolean resolve) {
        int i = from;
        int angles = 0;
        boolean supers = false;
        List<String> written = new ArrayList<>();
        while (i < t.size() && !(angles == 0 && t.get(i).equals("{"))) {
            String tok = t.get(i);
            if (tok.equals("<")) angles++;
            else if (tok.equals(">")) angles--;
            else if (angles == 0 && (tok.equals("extends") || tok.equals("implements"))) supers = true;
            else if (angles == 0 && supers && isIdentifier(tok) && !t.get(i - 1).equals(".")) {
                int last = dottedEnd(t, i);
                written.add(dotted(t, i, last));
                i = last;
            }
            i++;
        }
        if (!resolve) {
            TypeInfo info = new TypeInfo(source, outer);
            info.supers.addAll(written);
            types.put(key, info);
        }
        return i;
    }

    /** The untyped parameters of the lambda whose arrow is at {@code arrow}: they hide fields of their names. */
    private static void lambdaParameters(List<String> t, int arrow, Map<String, Written> header) {
        String before = t.get(arrow - 1);
        if (isIdentifier(before)) {
            header.putIfAbsent(before, null);
        } else if (before.equals(")")) {
            for (int i = arrow - 2; i >= 0 && !t.get(i).equals("("); i--) {
                String next = t.get(i + 1);
                if (isIdentifier(t.get(i)) && (next.equals(",") || next.equals(")"))) {
                    header.putIfAbsent(t.get(i), null);
                }
            }
        }
    }

    /**
     * A declaration whose type starts at {@code i}: {@code [modifiers] Type[<...>][[]] name} followed by one of
     * {@link #AFTER_NAME}; else null. The type is a primitive or a (qualified) name whose last part is capitalised.
     */
    private static Declaration declarationAt(List<String> t, int i) {
        String prev = i > 0 ? t.get(i - 1) : "";
        if (prev.equals(".") || prev.equals("@") || prev.equals("::")
                || isIdentifier(prev) && !MODIFIERS.contains(prev)) {
            return null;
        }
        String first = t.get(i);
        if (KEYWORDS.contains(first) || MODIFIERS.contains(first)) return null;
        int j = dottedEnd(t, i);
        String type = dotted(t, i, j);
        String last = t.get(j);
        boolean primitive = j == i && PRIMITIVES.contains(first);
        if (!primitive && !Character.isUpperCase(last.charAt(0))) return null;
        j++;
        if (j < t.size() && t.get(j).equals("<")) {
            j = typeArguments(t, j);
            if (j < 0) return null;
        }
        int dims = 0;
        boolean varargs = false;
        while (j + 1 < t.size() && t.get(j).equals("[") && t.get(j + 1).equals("]")) {
            dims++;
            j += 2;
        }
        if (j < t.size() && t.get(j).equals("...")) {
            dims++;
            varargs = true;
            j++;
        }
        if (j + 1 >= t.size() || !isIdentifier(t.get(j)) || KEYWORDS.contains(t.get(j))
                || MODIFIERS.contains(t.get(j)) || !AFTER_NAME.contains(t.get(j + 1))) {
            return null;
        }
        return new Declaration(type, dims, j, varargs);
    }

    /** The index of the last name of the dotted name that starts at {@code i}: of {@code C} in {@code a.b.C}. */
    private static int dottedEnd(List<String> t, int i) {
        int j = i;
        while (j + 2 < t.size() && t.get(j + 1).equals(".") && isIdentifier(t.get(j + 2))) j += 2;
        return j;
    }

    private static String dotted(List<String> t, int first, int last) {
        return String.join("", t.subList(first, last + 1));
    }

    /** The index after the type arguments that open at {@code open}, or -1 when they are no type arguments. */
    private static int typeArguments(List<String> t, int open) {
        int angles = 0;
        for (int j = open; j < t.size(); j++) {
            String tok = t.get(j);
            if (tok.equals("<")) {
                angles++;
            } else if (tok.equals(">")) {
                if (--angles == 0) return j + 1;
            } else if (!isIdentifier(tok) && !tok.equals(",") && !tok.equals(".") && !tok.equals("?")
                    && !tok.equals("[") && !tok.equals("]") && !tok.equals("&")) {
                return -1;
            }
        }
        return -1;
    }

    /** A method declaration's parameters from its parenthesis: {count, 1 if the last is varargs}. */
    private static int[] parameterCount(List<String> t, int open) {
        int count = 0;
        int varargs = 0;
        int nesting = 0;
        boolean any = false;
        for (int j = open + 1; j < t.size(); j++) {
            String tok = t.get(j);
            if (nesting == 0 && tok.equals(")")) break;
            if (tok.equals("(") || tok.equals("<")) nesting++;
            else if (tok.equals(")") || tok.equals(">")) nesting--;
            else if (nesting == 0 && tok.equals(",")) count++;
            else if (tok.equals("...")) varargs = 1;
            any = true;
        }
        return new int[] {any ? count + 1 : 0, varargs};
    }

    /** The number of arguments of the call whose parenthesis opens at {@code open}. */
    private static int argumentCount(List<String> t, int open) {
        if (t.get(open + 1).equals(")")) return 0;
        int count = 1;
        int nesting = 0;
        for (int j = open; j < t.size(); j++) {
            String tok = t.get(j);
            if (tok.equals("(") || tok.equals("[") || tok.equals("{")) nesting++;
            else if (tok.equals(")") || tok.equals("]") || tok.equals("}")) {
                if (--nesting == 0) break;
            } else if (nesting == 1 && tok.equals(",")) count++;
        }
        return count;
    }

    /** The index after the bracket that closes the one at {@code open}. */
    private static int skip(List<String> t, int open) {
        String opening = t.get(open);
        String closing = opening.equals("(") ? ")" : opening.equals("[") ? "]" : ">";
        int nesting = 0;
        for (int j = open; j < t.size(); j++) {
            if (t.get(j).equals(opening)) nesting++;
            else if (t.get(j).equals(closing) && --nesting == 0) return j + 1;
        }
        return t.size();
    }

    /**
     * Follows the chain that starts at token {@code i}, if one does, and records every class it lands in. Not
     * for a token that is itself a link ({@code .name}).
     */
    private void follow(List<String> t, int i, Source source, Deque<Body> bodies,
            Deque<Map<String, Written>> scopes, Map<String, Written> header) {
        String head = t.get(i);
        String context = bodies.peek().type;
        Landing at;
        int j = i + 1;
        StringBuilder text = new StringBuilder(head);
        if (head.equals("new")) {
            if (i + 1 >= t.size() || !isIdentifier(t.get(i + 1))) return;
            j = dottedEnd(t, i + 1);
            String name = dotted(t, i + 1, j);
            j++;
            if (j < t.size() && t.get(j).equals("<")) j = skip(t, j);
            if (j >= t.size() || !t.get(j).equals("(")) return; // an array, or no class
            j = skip(t, j);
            if (j < t.size() && t.get(j).equals("{")) return; // an anonymous class
            String type = resolveName(name, source, context);
            at = type == null ? null : new Landing(type, 0);
            text.append(' ').append(name).append("()");
        } else if (head.equals("this") || head.equals("super")) {
            if (j < t.size() && t.get(j).equals("(")) return; // a constructor's call of another
            at = new Landing(context, 0);
            if (head.equals("super")) {
                List<String> supers = supersOf(context);
                at = supers.isEmpty() ? null : new Landing(supers.get(0), 0);
            }
        } else if (KEYWORDS.contains(head) || MODIFIERS.contains(head) || PRIMITIVES.contains(head)) {
            return;
        } else if (j < t.size() && t.get(j).equals("(")) {
            at = null;
            for (Body b : bodies) {
                at = callOn(b.type, head, argumentCount(t, j));
                if (at != null || hasMethod(b.type, head)) break;
            }
            j = skip(t, j);
            text.append("()");
        } else {
            at = variable(head, source, bodies, scopes, header);
        }
        while (at != null) {
            record(source.file, at, text.toString());
            if (j < t.size() && t.get(j).equals("[")) {
                j = skip(t, j);
                text.append("[]");
                at = at.dims() > 0 ? new Landing(at.type(), at.dims() - 1) : null;
            } else if (j + 1 < t.size() && t.get(j).equals(".") && isIdentifier(t.get(j + 1))) {
                String name = t.get(j + 1);
                text.append('.').append(name);
                if (name.equals("class") || name.equals("new")) return;
                if (name.equals("this")) {
                    j += 2;
                } else if (j + 2 < t.size() && t.get(j + 2).equals("(")) {
                    at = at.dims() > 0 ? null : callOn(at.type(), name, argumentCount(t, j + 2));
                    j = skip(t, j + 2);
                    text.append("()");
                } else {
                    Written field = at.dims() > 0 ? null : field(at.type(), name, new HashSet<>());
                    String nested = at.dims() > 0 || field != null ? null : at.type() + "." + name;
                    at = field != null ? resolve(field)
                            : nested != null && types.containsKey(nested) ? new Landing(nested, 0) : null;
                    j += 2;
                }
            } else {
                return;
            }
        }
    }

    /** A name that starts a chain: a local or parameter, else a field seen from the open class bodies, else a class. */
    private Landing variable(String name, Source source, Deque<Body> bodies, Deque<Map<String, Written>> scopes,
            Map<String, Written> header) {
        if (header.containsKey(name)) return resolve(header.get(name));
        for (Map<String, Written> scope : scopes) {
            if (scope.containsKey(name)) return resolve(scope.get(name));
        }
        for (Body b : bodies) {
            Written field = field(b.type, name, new HashSet<>());
            if (field != null) return resolve(field);
        }
        String type = resolveName(name, source, bodies.peek().type);
        return type == null ? null : new Landing(type, 0);
    }

    /** {@code type}'s field {@code name}, its own or inherited from a supertype among the sources; or null. */
    private Written field(String type, String name, Set<String> seen) {
        TypeInfo info = types.get(type);
        if (info == null || !seen.add(type)) return null;
        Written own = info.fields.get(name);
        if (own != null) return own;
        for (String s : supersOf(type)) {
            Written inherited = field(s, name, seen);
            if (inherited != null) return inherited;
        }
        return null;
    }

    /**
     * Where a call of {@code type}'s method {@code name} with {@code arguments} arguments lands: the return type of
     * the class's own methods of that name, else of the nearest supertype's; null when unknown or not one.
     */
    private Landing callOn(String type, String name, int arguments) {
        List<Method> all = methods(type, name, new HashSet<>());
        List<Method> fit = new ArrayList<>();
        for (Method m : all) {
            if (m.params() == arguments || m.varargs() && arguments >= m.params() - 1) fit.add(m);
        }
        Set<Landing> landings = new HashSet<>();
        boolean unknown = false;
        for (Method m : fit.isEmpty() ? all : fit) {
            Landing l = resolve(m.returns());
            if (l == null) unknown = true;
            else landings.add(l);
        }
        return landings.size() == 1 && !unknown ? landings.iterator().next() : null;
    }

    private boolean hasMethod(String type, String name) {
        return !methods(type, name, new HashSet<>()).isEmpty();
    }

    private List<Method> methods(String type, String name, Set<String> seen) {
        TypeInfo info = types.get(type);
        if (info == null || !seen.add(type)) return List.of();
        List<Method> own = info.methods.get(name);
        if (own != null) return own;
        for (String s : supersOf(type)) {
            List<Method> inherited = methods(s, name, seen);
            if (!inherited.isEmpty()) return inherited;
        }
        return List.of();
    }

    /** {@code type}'s supertypes that are classes of the sources. */
    private List<String> supersOf(String type) {
        TypeInfo info = types.get(type);
        List<String> supers = new ArrayList<>();
        if (info == null) return supers;
        for (String written : info.supers) {
            // A supertype's name resolves where the class is declared: in its enclosing class, or its file.
            String resolved = resolveName(written, info.source, info.outer);
            if (resolved != null && !resolved.equals(type)) supers.add(resolved);
        }
        return supers;
    }

    private Landing resolve(Written w) {
        if (w == null) return null;
        String type = resolveName(w.name(), w.source(), w.context());
        return type == null ? null : new Landing(type, w.dims());
    }

    /**
     * The class a type name written in {@code source}, inside class {@code context}, names: a nested class of the
     * context, of a class that encloses it or of their supertypes, else a top-level class of the sources that the
     * file sees (its own package's, or imported); null for any other type. A qualified name resolves its first
     * part so and the rest as nested classes; a package prefix picks the top-level class by package.
     */
    private String resolveName(String written, Source source, String context) {
        String[] parts = written.split("\\.");
        int k = 0;
        while (k < parts.length - 1 && Character.isLowerCase(parts[k].charAt(0))) k++;
        String key;
        if (k > 0) {
            TypeInfo top = types.get(parts[k]);
            String pkg = String.join(".", Arrays.copyOfRange(parts, 0, k));
            key = top != null && top.outer == null && top.source.pkg.equals(pkg) ? parts[k] : null;
        } else {
            key = simpleName(parts[0], source, context);
        }
        for (int p = k + 1; p < parts.length && key != null; p++) {
            key = types.containsKey(key + "." + parts[p]) ? key + "." + parts[p] : null;
        }
        return key;
    }

    private String simpleName(String name, Source source, String context) {
        for (String c = context; c != null; c = types.containsKey(c) ? types.get(c).outer : null) {
            String nested = nested(c, name, new HashSet<>());
            if (nested != null) return nested;
        }
        TypeInfo top = types.get(name);
        if (top == null || top.outer != null) return null;
        String pkg = top.source.pkg;
        boolean visible = top.source == source || pkg.equals(source.pkg) || source.imports.contains(pkg + "." + name)
                || source.imports.contains(pkg + ".*");
        return visible ? name : null;
    }

    private String nested(String type, String name, Set<String> seen) {
        if (!seen.add(type)) return null;
        if (types.containsKey(type + "." + name)) return type + "." + name;
        for (String s : supersOf(type)) {
            String found = nested(s, name, seen);
            if (found != null) return found;
        }
        return null;
    }

    private void record(String file, Landing at, String chain) {
        TypeInfo info = types.get(at.type());
        if (info != null) {
            reached.computeIfAbsent(file, k -> new LinkedHashMap<>()).putIfAbsent(info.source.file, chain);
        }
    }

    private static String simple(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }

    private static boolean isIdentifier(String token) {
        char c = token.charAt(0);
        return Character.isLetter(c) || c == '_' || c == '$';
    }
}
