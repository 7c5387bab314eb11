/**
 * The engine's side of the one exception policy: {@code Errors} is the factory every engine class uses to raise a
 * {@link dev.sluice.api.SluiceException} (its {@code Kind}: bad input, bad table, bad config, conflict, storage,
 * unsupported, internal), delegating the message shapes to the public type so that engine and front ends word their
 * errors alike (see EXCEPTION_PRINCIPLES.md).
 */
package dev.sluice.internal.error;
