// Local dates and normalisation versions, defined once in HealthBasics, come with the
// daily payload: readiness, which sees nothing but HealthMetrics, speaks them too.
@_exported import HealthBasics
