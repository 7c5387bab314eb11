/**
 * Configuration: {@code Config} is an immutable set of string properties read only through typed {@code
 * ConfigKey}s, and {@code ConfigKeys} lists every key Sluice reads with its default and meaning (Hudi's property
 * names where Hudi has the setting). Every other package asks a {@code Config} with a key; the list is documented
 * in docs/configuration.md, which a test keeps in step with {@code ConfigKeys}.
 */
package dev.sluice.internal.config;
