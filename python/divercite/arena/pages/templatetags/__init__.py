"""The pages' template filters."""
