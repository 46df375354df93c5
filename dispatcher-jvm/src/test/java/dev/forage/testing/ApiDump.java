package dev.forage.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.GenericDeclaration;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.function.Predicate;

/**
 * Guards a module's public API: every public or protected type of the given packages and its public or protected
 * members, as a sorted text dump compared with the committed {@code api/MODULE.api}. A change to the API, meant
 * or not, fails the check; a meant one is recorded by rewriting the dump with {@code -Dforage.api.update=true}
 * and committing the file. Synthetic and bridge members and names with a '$' are left out; a module with Kotlin
 * passes predicates that hide what Kotlin compiles to public bytecode but declares internal.
 *
 * <pre>{@code
 * new ApiDump("interop-java", List.of("dev.forage.interop"), ForageExecutorService.class).check();
 * }</pre>
 */
public final class ApiDump {
    private final String module;
    private final List<String> packages;
    private final Class<?> anchor;
    private final Predicate<Class<?>> hiddenType;
    private final Predicate<Member> hiddenMember;
    private final Predicate<Class<?>> droppedWhenEmpty;

    /** Plain Java: visibility is what the bytecode says. */
    public ApiDump(String module, List<String> packages, Class<?> anchor) {
        this(module, packages, anchor, c -> false, m -> false, c -> false);
    }

    /**
     * {@code hiddenType}/{@code hiddenMember}: public in the bytecode but not API (Kotlin's internal);
     * {@code droppedWhenEmpty}: a type left out when it has no API member (a Kotlin file of internal functions).
     */
    public ApiDump(String module, List<String> packages, Class<?> anchor, Predicate<Class<?>> hiddenType,
            Predicate<Member> hiddenMember, Predicate<Class<?>> droppedWhenEmpty) {
        this.module = module;
        this.packages = packages;
        this.anchor = anchor;
        this.hiddenType = hiddenType;
        this.hiddenMember = hiddenMember;
        this.droppedWhenEmpty = droppedWhenEmpty;
    }

    /** Compares the dump with {@code api/MODULE.api} of the module under test, or rewrites it when asked. */
    public void check() throws Exception {
        Path file = Paths.get(System.getProperty("basedir", "."), "api", module + ".api");
        List<String> actual = dump();
        if (Boolean.getBoolean("forage.api.update")) {
            Files.createDirectories(file.getParent());
            Files.write(file, actual, StandardCharsets.UTF_8);
            return;
        }
        String howTo = "If the change is meant, rewrite the dump and commit it:\n"
                + "  mvn -pl dispatcher-jvm," + module + " test -Dtest=PublicApiTest -Dforage.api.update=true\n";
        if (!Files.exists(file)) {
            fail("No API dump at " + file + ".\n" + howTo);
        }
        List<String> expected = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (!expected.equals(actual)) {
            fail("The public API of " + module + " differs from " + file + "\n"
                    + "(- only in the dump, + only in the code):\n" + diff(expected, actual) + howTo);
        }
    }

    List<String> dump() throws Exception {
        ClassLoader loader = anchor.getClassLoader();
        List<Class<?>> types = new ArrayList<>();
        for (String name : classNames()) {
            Class<?> c = Class.forName(name, false, loader);
            if (isApiType(c)) types.add(c);
        }
        types.sort((a, b) -> a.getName().compareTo(b.getName()));
        List<String> out = new ArrayList<>();
        for (Class<?> c : types) {
            TreeSet<String> members = new TreeSet<>();
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (isApiMember(k)) members.add("  " + constructor(k));
            }
            // Public members inherited from a non-public superclass of ours are API of c too: callers see
            // them on c. The most derived declaration of a method wins.
            Set<String> seen = new HashSet<>();
            for (Class<?> d = c; d == c || isHiddenSuperclassOfOurs(d); d = d.getSuperclass()) {
                for (Method m : d.getDeclaredMethods()) {
                    if (isApiMember(m) && !m.isBridge() && seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
                        members.add("  " + method(m));
                    }
                }
                for (Field f : d.getDeclaredFields()) {
                    if (isApiMember(f) && seen.add(f.getName())) members.add("  " + field(f));
                }
            }
            if (members.isEmpty() && droppedWhenEmpty.test(c)) continue;
            out.add(header(c));
            out.addAll(members);
            out.add("");
        }
        return out;
    }

    /** Binary names of the classes directly in the packages, from the directory or jar that holds the anchor. */
    private List<String> classNames() throws IOException {
        URI location;
        try {
            location = anchor.getProtectionDomain().getCodeSource().getLocation().toURI();
        } catch (Exception e) {
            throw new IOException("cannot locate the main classes", e);
        }
        Path root = Paths.get(location);
        if (Files.isDirectory(root)) return classNames(root);
        try (FileSystem jar = FileSystems.newFileSystem(root, (ClassLoader) null)) {
            return classNames(jar.getPath("/"));
        }
    }

    private List<String> classNames(Path root) throws IOException {
        List<String> names = new ArrayList<>();
        for (String pkg : packages) {
            Path dir = root.resolve(pkg.replace('.', '/'));
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> files = Files.list(dir)) {
                files.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".class") && !n.equals("package-info.class"))
                        .forEach(n -> names.add(pkg + "." + n.substring(0, n.length() - ".class".length())));
            }
        }
        return names;
    }

    // ---- what counts --------------------------------------------------------------------------------------

    private boolean isApiType(Class<?> c) {
        for (Class<?> t = c; t != null; t = t.getDeclaringClass()) {
            if (t.isSynthetic() || t.isAnonymousClass() || t.isLocalClass()) return false;
            if (!isVisible(t.getModifiers()) || hiddenType.test(t)) return false;
        }
        return true;
    }

    private boolean isHiddenSuperclassOfOurs(Class<?> d) {
        return d != null && !isVisible(d.getModifiers()) && packages.contains(d.getPackage().getName());
    }

    private boolean isApiMember(Member m) {
        return isVisible(m.getModifiers()) && !m.isSynthetic() && !m.getName().contains("$") && !hiddenMember.test(m);
    }

    private static boolean isVisible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    // ---- stable text (own rendering: toGenericString's wording is not the same on every JDK) ---------------

    private static String header(Class<?> c) {
        int mods = c.getModifiers() & Modifier.classModifiers();
        String kind;
        if (c.isAnnotation()) {
            kind = "@interface";
            mods &= ~(Modifier.ABSTRACT | Modifier.INTERFACE);
        } else if (c.isInterface()) {
            kind = "interface";
            mods &= ~(Modifier.ABSTRACT | Modifier.INTERFACE);
        } else if (c.isEnum()) {
            kind = "enum";                           // abstract or final only says whether constants have bodies
            mods &= ~(Modifier.ABSTRACT | Modifier.FINAL);
        } else {
            kind = "class";
        }
        StringBuilder s = new StringBuilder(modifiers(mods)).append(kind).append(' ').append(c.getName());
        s.append(typeParameters(c));
        Type superclass = c.getGenericSuperclass();
        if (superclass != null && superclass != Object.class) s.append(" extends ").append(type(superclass));
        Type[] interfaces = c.getGenericInterfaces();
        if (interfaces.length > 0) {
            s.append(c.isInterface() ? " extends " : " implements ");
            s.append(Arrays.stream(interfaces).map(ApiDump::type).collect(Collectors.joining(", ")));
        }
        return s.toString();
    }

    private static String constructor(Constructor<?> k) {
        return modifiers(k.getModifiers() & memberModifiers()) + prefixed(typeParameters(k))
                + "constructor" + parameters(k) + exceptions(k);
    }

    private static String method(Method m) {
        String mods = modifiers(m.getModifiers() & memberModifiers());
        if (m.isDefault()) mods += "default ";
        return mods + prefixed(typeParameters(m)) + type(m.getGenericReturnType()) + " " + m.getName()
                + parameters(m) + exceptions(m);
    }

    private static String field(Field f) {
        return modifiers(f.getModifiers() & memberModifiers()) + type(f.getGenericType()) + " " + f.getName();
    }

    /** Access, static, final, abstract: what a caller or subclass sees; not synchronized, native, volatile. */
    private static int memberModifiers() {
        return Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT;
    }

    private static String modifiers(int mods) {
        String s = Modifier.toString(mods);
        return s.isEmpty() ? "" : s + " ";
    }

    private static String prefixed(String typeParameters) {
        return typeParameters.isEmpty() ? "" : typeParameters + " ";
    }

    private static String parameters(Executable e) {
        Type[] params = e.getGenericParameterTypes();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < params.length; i++) {
            String t = type(params[i]);
            if (e.isVarArgs() && i == params.length - 1 && t.endsWith("[]")) {
                t = t.substring(0, t.length() - 2) + "...";
            }
            out.add(t);
        }
        return "(" + String.join(", ", out) + ")";
    }

    private static String exceptions(Executable e) {
        Type[] thrown = e.getGenericExceptionTypes();
        if (thrown.length == 0) return "";
        return " throws " + Arrays.stream(thrown).map(ApiDump::type).sorted().collect(Collectors.joining(", "));
    }

    private static String typeParameters(GenericDeclaration d) {
        TypeVariable<?>[] vars = d.getTypeParameters();
        if (vars.length == 0) return "";
        List<String> out = new ArrayList<>();
        for (TypeVariable<?> v : vars) {
            List<String> bounds = Arrays.stream(v.getBounds()).filter(b -> b != Object.class)
                    .map(ApiDump::type).collect(Collectors.toList());
            out.add(bounds.isEmpty() ? v.getName() : v.getName() + " extends " + String.join(" & ", bounds));
        }
        return "<" + String.join(", ", out) + ">";
    }

    private static String type(Type t) {
        if (t instanceof Class) {
            return ((Class<?>) t).getTypeName();
        } else if (t instanceof ParameterizedType) {
            ParameterizedType p = (ParameterizedType) t;
            return type(p.getRawType()) + "<" + Arrays.stream(p.getActualTypeArguments())
                    .map(ApiDump::type).collect(Collectors.joining(", ")) + ">";
        } else if (t instanceof TypeVariable) {
            return ((TypeVariable<?>) t).getName();
        } else if (t instanceof WildcardType) {
            WildcardType w = (WildcardType) t;
            if (w.getLowerBounds().length > 0) return "? super " + type(w.getLowerBounds()[0]);
            Type[] upper = w.getUpperBounds();
            return upper.length == 0 || upper[0] == Object.class ? "?" : "? extends " + type(upper[0]);
        } else if (t instanceof GenericArrayType) {
            return type(((GenericArrayType) t).getGenericComponentType()) + "[]";
        }
        return t.getTypeName();
    }

    // ---- diff ---------------------------------------------------------------------------------------------

    private static String diff(List<String> expected, List<String> actual) {
        Set<String> inExpected = keys(expected);
        Set<String> inActual = keys(actual);
        StringBuilder s = new StringBuilder();
        changes(s, "- ", expected, inActual);
        changes(s, "+ ", actual, inExpected);
        return s.toString();
    }

    /** Each line keyed by its type header, so that equal member lines of two types stay apart. */
    private static Set<String> keys(List<String> lines) {
        Set<String> keys = new HashSet<>();
        String header = "";
        for (String line : lines) {
            if (line.isEmpty()) continue;
            if (!line.startsWith(" ")) header = line;
            keys.add(header + "\n" + line);
        }
        return keys;
    }

    private static void changes(StringBuilder s, String sign, List<String> lines, Set<String> other) {
        String header = "";
        boolean headerShown = false;
        for (String line : lines) {
            if (line.isEmpty()) continue;
            boolean member = line.startsWith(" ");
            if (!member) {
                header = line;
                headerShown = false;
            }
            if (other.contains(header + "\n" + line)) continue;
            if (member && !headerShown) {
                s.append("  ").append(header).append('\n');   // unchanged type, changed member
                headerShown = true;
            }
            s.append(sign).append(line).append('\n');
            if (!member) headerShown = true;
        }
    }
}
