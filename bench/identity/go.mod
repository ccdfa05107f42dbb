module example.com/identitybench

go 1.26
