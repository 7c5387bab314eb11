/**
 * The storage plug-in interface and the local implementation: {@code Storage} is every file operation the engine
 * needs (open, create, append, list, delete, and {@code createExclusive}, the atomic create-if-absent that
 * publishes an instant), {@code LocalStorage} implements it with NIO, and {@code Storages} picks an implementation
 * by a location's URI scheme, asking {@code StorageProvider}s found through {@code ServiceLoader} (such as {@code
 * sluice-hadoop}) for schemes the core cannot serve. Both paths use it for every byte they move.
 */
package dev.sluice.storage;
