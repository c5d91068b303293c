package org.ncclharness.harness;

import java.util.regex.Pattern;

/**
 * What a citation of a document outside the repository looks like: the project's brief and architecture notes
 * and the research notes beside the checkout ({@code ../shared}), by name or by their section numbers. Code,
 * tests, docs and help cite docs/ pages or the public source they follow instead; {@link CitationsTest} holds
 * the sources to it and the help tests the printed text.
 */
public final class OutsideCitations {

    public static final Pattern PATTERN = Pattern.compile(String.join("|",
            "\\bSPEC\\b", "\\bARCHITECTURE\\b", "\\.\\./shared\\b", "/shared/reference\\b",
            "\\breference:? (§|[A-F](\\.\\d|\\b)|[\\w-]+\\.md\\b)", "\\breference/[\\w-]+\\.md\\b",
            "[\\w-]+\\.md §"));

    private OutsideCitations() {
    }
}
