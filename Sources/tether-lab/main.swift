import Lab
print("tether-lab")
