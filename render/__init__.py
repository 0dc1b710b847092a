"""Image rendering for Railyard: shared drawing kit (render.kit) and game renderers."""
