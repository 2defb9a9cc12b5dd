// Local dates and normalisation versions are the shared vocabulary of the package: every
// module that imports HealthCore speaks them (they are defined once, in HealthBasics).
@_exported import HealthBasics
