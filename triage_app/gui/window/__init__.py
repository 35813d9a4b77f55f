"""The main window and the parts it is assembled from."""
